/** Hardening of the desktop window: no navigation, no new windows, no permissions, no webviews. */
import type { Session, WebContents } from 'electron';

// Writing to the clipboard ("Copy as OpenAI functions") is the one permission the app uses;
// the sanitised variant cannot read, only write plain text.
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  session.setPermissionCheckHandler((_wc, permission) => ALLOWED_PERMISSIONS.has(permission));
}

/** `openInBrowser` is offered every window.open; it decides what, if anything, goes to the system browser. */
export function hardenContents(contents: WebContents, isOwnUrl: (url: string) => boolean, openInBrowser?: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (!isOwnUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isOwnUrl(url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser?.(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
