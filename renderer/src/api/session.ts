/** Who the renderer is talking to: the desktop bridge or the browser host, and the browser host's bearer token. */

const TOKEN_KEY = 'toolwright.token';

/**
 * Takes `#token=…` from the address bar into sessionStorage and removes it from the URL, so the
 * token is neither bookmarked nor sent as a Referer. Called once at start-up.
 */
export function adoptTokenFromUrl(): void {
  const hash = window.location.hash;
  const m = /(?:^#|&)token=([^&]+)/.exec(hash);
  if (!m) return;
  try {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]!));
  } catch {
    // sessionStorage can be unavailable (opaque origins); the token then lives in memory only.
    memoryToken = decodeURIComponent(m[1]!);
  }
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
}

let memoryToken: string | undefined;

/** Keeps a token the person pasted (the sign-in page), as adoptTokenFromUrl does with the link's. */
export function setToken(value: string): void {
  memoryToken = value;
  try {
    sessionStorage.setItem(TOKEN_KEY, value);
  } catch {
    // memory only
  }
}

/** The bearer token of the browser host (for the MCP endpoint's copy-ready configuration). */
export function token(): string | undefined {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? memoryToken;
  } catch {
    return memoryToken;
  }
}

export function transportKind(): 'ipc' | 'rest' {
  return typeof window !== 'undefined' && window.toolwright ? 'ipc' : 'rest';
}
