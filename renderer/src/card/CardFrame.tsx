/**
 * A card as agents' users will see it: the tool's title and colours around the sanitised HTML,
 * which renders in an <iframe sandbox=""> (no scripts, opaque origin) via srcdoc, with the
 * card's own CSP inside (see sanitize.ts).
 */
import { useMemo, useState } from 'react';
import { buildCardDocument, safeColor } from './sanitize.js';
import { useColorScheme } from '../app/useColorScheme.js';

interface CardFrameProps {
  title: string;
  accentColor?: string;
  backgroundColor?: string;
  html?: string;
  text?: string;
  testId?: string;
}

export function CardFrame({ title, accentColor, backgroundColor, html, text, testId }: CardFrameProps) {
  const scheme = useColorScheme();
  const [tall, setTall] = useState(false);
  const accent = safeColor(accentColor, '#4a90d4');
  const background = safeColor(backgroundColor, 'transparent');
  const doc = useMemo(() => buildCardDocument({ html, text, scheme, foreground: scheme === 'dark' ? '#e8eaed' : '#1d2330' }), [html, text, scheme]);
  return (
    <figure className="card-frame" style={{ borderColor: accent, background }} data-testid={testId}>
      <figcaption className="card-title" style={{ borderBottomColor: accent }}>
        <span className="card-accent" style={{ background: accent }} aria-hidden="true" />
        <span className="card-title-text">{title || 'Untitled card'}</span>
        <button type="button" className="link-btn" onClick={() => setTall((t) => !t)} aria-pressed={tall}>
          {tall ? 'Shrink' : 'Expand'}
        </button>
      </figcaption>
      <iframe
        className={`card-iframe${tall ? ' is-tall' : ''}`}
        sandbox=""
        srcDoc={doc}
        title={`Card: ${title || 'untitled'}`}
        referrerPolicy="no-referrer"
        data-testid={testId ? `${testId}-iframe` : undefined}
      />
    </figure>
  );
}
