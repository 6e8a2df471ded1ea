/** The upstream type's way to add a bundle: an MCP server, from the sidebar's heading or the new-bundle page. */
import { preloadAddUpstream, useAddUpstream } from './AddUpstream.js';

/** A pointer on it or focus in it: the dialog's code loads now, so the click opens it at once. */
const loadAhead = () => void preloadAddUpstream().catch(() => undefined);
const intent = { onPointerEnter: loadAhead, onFocus: loadAhead };

export function AddUpstreamBundle({ place }: { place: 'sidebar' | 'new-bundle' }) {
  const open = useAddUpstream();
  if (place === 'new-bundle') {
    return (
      <p className="page-sub">
        Tools from an MCP server you already run?{' '}
        <button type="button" className="link-btn" onClick={open} {...intent} data-testid="bundle-add-server">
          Add an MCP server instead
        </button>
      </p>
    );
  }
  return (
    <button
      type="button"
      className="icon-btn"
      aria-label="Add an MCP server…"
      title="Add an MCP server… (a command line or a URL; its tools become Toolwright tools)"
      onClick={open}
      {...intent}
      data-testid="sidebar-add-server"
    >
      <ServerIcon />
    </button>
  );
}

function ServerIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round">
      <rect x="2" y="2.5" width="12" height="4.5" rx="1" />
      <rect x="2" y="9" width="12" height="4.5" rx="1" />
      <path d="M5 4.75h.01M5 11.25h.01" strokeWidth="2" />
    </svg>
  );
}
