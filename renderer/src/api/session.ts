/** Who the renderer is talking to: the desktop bridge or the browser host, and the browser host's bearer token. */

const TOKEN_KEY = 'toolwright.token';

declare global {
  interface Window {
    /** The link's token, taken out of the address by public/first-requests.js before the app's code ran. */
    __twLinkToken?: string;
  }
}

/** The token this tab uses: the link's or the sign-in page's, kept in memory; sessionStorage holds it for a reload. */
let memoryToken: string | undefined;
/** Whether memoryToken still has to be written to sessionStorage (keepTokenForTab). */
let unkept = false;

/**
 * Takes the link's token (`#token=…`, or the one first-requests.js already took out of the
 * address) and removes it from the URL, so the token is neither bookmarked nor sent as a Referer.
 * Called once at start-up. The token stays in memory: sessionStorage is written later
 * (keepTokenForTab), since a tab's first access to it is a synchronous round trip to the browser
 * process, 33–118 ms of the main thread before the first render in traces at load 3–9.
 */
export function adoptTokenFromUrl(): void {
  const early = typeof window.__twLinkToken === 'string' ? window.__twLinkToken : undefined;
  delete window.__twLinkToken;
  const m = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  const link = m ? decodeURIComponent(m[1]!) : early;
  if (link === undefined) return;
  memoryToken = link;
  unkept = true;
  if (m) window.history.replaceState(null, '', window.location.pathname + window.location.search);
  // A reload before the first screen settles must still find it.
  window.addEventListener('pagehide', keepTokenForTab, { once: true });
}

/** Writes the link's token to sessionStorage for a reload of this tab (boot.ts: once the first screen has settled). */
export function keepTokenForTab(): void {
  if (!unkept || memoryToken === undefined) return;
  unkept = false;
  try {
    sessionStorage.setItem(TOKEN_KEY, memoryToken);
  } catch {
    // sessionStorage can be unavailable (opaque origins); the token then lives in memory only.
  }
}

/** Keeps a token the person pasted (the sign-in page), as adoptTokenFromUrl does with the link's. */
export function setToken(value: string): void {
  memoryToken = value;
  unkept = true;
  keepTokenForTab();
}

/** The bearer token of the browser host (for the MCP endpoint's copy-ready configuration). */
export function token(): string | undefined {
  if (memoryToken !== undefined) return memoryToken;
  try {
    // A reload: the token this tab kept.
    memoryToken = sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    // memory only
  }
  return memoryToken;
}

export function transportKind(): 'ipc' | 'rest' {
  return typeof window !== 'undefined' && window.toolwright ? 'ipc' : 'rest';
}
