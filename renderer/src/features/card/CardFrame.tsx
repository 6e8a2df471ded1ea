/**
 * A card as agents' users will see it: the tool's title and colours around the sanitised HTML,
 * which renders in a sandboxed srcdoc frame (opaque origin) with the card's own CSP inside (see
 * shared/card/sanitize.ts). The frame fits its content: the one script the card's CSP admits
 * posts the content's height, and the frame takes it, up to a cap past which the card scrolls
 * inside (Show all lifts the cap). A height is taken only from this frame's own window, only
 * from an opaque origin, and only in the exact shape the script sends.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { buildCardDocument, CARD_SANDBOX, cardHeightOf, safeColor } from './browserSanitizer.js';
import { useColorScheme } from '../../lib/useColorScheme.js';
import './CardFrame.css';

interface CardFrameProps {
  title: string;
  accentColor?: string;
  backgroundColor?: string;
  html?: string;
  text?: string;
  testId?: string;
  /** The tallest the frame grows before the card scrolls inside it. */
  maxHeight?: number;
}

/** Until the card reports its height: about one line of text with the body's padding. */
const INITIAL_HEIGHT = 48;
const DEFAULT_MAX_HEIGHT = 360;
/** Show all still stops somewhere: a card of a million lines scrolls inside this. */
const EXPANDED_MAX_HEIGHT = 4000;

export function CardFrame({ title, accentColor, backgroundColor, html, text, testId, maxHeight = DEFAULT_MAX_HEIGHT }: CardFrameProps) {
  const scheme = useColorScheme();
  const frame = useRef<HTMLIFrameElement>(null);
  const [content, setContent] = useState<number | null>(null);
  const [expanded, setExpanded] = useState(false);
  const accent = safeColor(accentColor, '#4a90d4');
  const background = safeColor(backgroundColor, 'transparent');
  const doc = useMemo(() => buildCardDocument({ html, text, scheme, foreground: scheme === 'dark' ? '#e8eaed' : '#1d2330' }), [html, text, scheme]);

  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      const own = frame.current?.contentWindow;
      if (!own || e.source !== own || e.origin !== 'null') return;
      const h = cardHeightOf(e.data);
      // A laid-out card is never 0 tall (its body has padding): 0 is a frame Chromium has not laid
      // out yet (one offscreen is render-throttled), and taking it would hide the card for good.
      if (h !== undefined && h > 0) setContent(Math.ceil(h));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  const capped = content !== null && content > maxHeight;
  const height = Math.min(content ?? INITIAL_HEIGHT, expanded ? EXPANDED_MAX_HEIGHT : maxHeight);
  return (
    <figure className="card-frame" style={{ borderColor: accent, background }} data-testid={testId}>
      <figcaption className="card-title" style={{ borderBottomColor: accent }}>
        <span className="card-accent" style={{ background: accent }} aria-hidden="true" />
        <span className="card-title-text">{title || 'Untitled card'}</span>
        {(capped || expanded) && (
          <button
            type="button"
            className="link-btn"
            onClick={() => setExpanded((v) => !v)}
            aria-expanded={expanded}
            data-testid={testId ? `${testId}-expand` : undefined}
          >
            {expanded ? 'Show less' : 'Show all'}
          </button>
        )}
      </figcaption>
      <iframe
        ref={frame}
        className="card-iframe"
        style={{ height }}
        sandbox={CARD_SANDBOX}
        srcDoc={doc}
        title={`Card: ${title || 'untitled'}`}
        referrerPolicy="no-referrer"
        data-testid={testId ? `${testId}-iframe` : undefined}
      />
    </figure>
  );
}
