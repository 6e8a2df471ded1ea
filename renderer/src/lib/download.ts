/** Handing bytes and text to the person: a download, the clipboard. */

/**
 * Saves bytes under `fileName` through a Blob URL and `<a download>`: the same in browser mode
 * and in Electron (whose session turns it into a save dialog). The URL is revoked once the
 * browser has taken the download.
 */
export function saveBytes(bytes: Uint8Array, fileName: string, type = 'application/zip'): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Puts text on the clipboard; false when the clipboard is unavailable or refused (the caller then shows the text). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
