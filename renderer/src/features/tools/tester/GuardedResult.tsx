/**
 * What the output guard did to a run's result on its way to agents (docs/guard.md): what it
 * removed or flagged, and under strip the raw text beside what agents receive, with the
 * characters a person cannot see written out.
 */
import { valueText } from '../../../../../shared/format.js';
import type { InvokeResult } from '../../../../../shared/types.js';
import type { OutputFinding } from '../../../../../shared/guard/output.js';
import { Badge } from '../../../components/States.js';
import './GuardedResult.css';

/** Ranges of invisible, bidirectional, tag and control characters, written out as `<U+…>` so the raw side shows what hides there. */
const HIDDEN_RANGES: readonly [number, number][] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xe0000, 0xe007f],
];
const isHidden = (cp: number) => HIDDEN_RANGES.some(([a, b]) => cp >= a && cp <= b);
const visible = (text: string) =>
  Array.from(text, (c) => {
    const cp = c.codePointAt(0)!;
    return isHidden(cp) ? `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>` : c;
  }).join('');

const LABEL: Record<OutputFinding['kind'], string> = {
  'tag-characters': 'tag characters',
  'bidi-controls': 'bidirectional controls',
  'invisible-characters': 'invisible characters',
  'control-characters': 'control characters',
  'ansi-escapes': 'ANSI escapes',
  'tool-call-markup': 'fake tool-call markup',
  'role-markup': 'fake conversation markup',
  instructions: 'orders to the model',
};

function Findings({ title, findings, tone }: { title: string; findings: OutputFinding[]; tone: 'warn' | 'danger' }) {
  if (!findings.length) return null;
  return (
    <li>
      {title}:{' '}
      {findings.map((f) => (
        <span key={f.kind} className="guarded-finding" title={f.sample}>
          <Badge tone={tone}>{LABEL[f.kind]}</Badge> ×{f.count}{' '}
        </span>
      ))}
    </li>
  );
}

export function GuardedResult({ result }: { result: InvokeResult }) {
  const guard = result.guard;
  if (!guard) return null;
  const { note } = guard;
  const stripped = 'value' in guard || !!guard.content;
  return (
    <section className="guarded-result" aria-label="Output guard" data-testid="guarded-result">
      <h3 className="report-heading">
        Output guard <span className="muted">· {note.mode === 'strip' ? 'strip' : 'flag'}</span>
      </h3>
      <ul className="guarded-findings">
        <Findings title="Removed before agents read it" findings={note.removed} tone="warn" />
        <Findings title="Flagged to agents (left in the text)" findings={note.flagged} tone="danger" />
      </ul>
      {stripped && (
        <div className="guarded-sides" role="table" aria-label="Raw result and what agents receive">
          <div role="row" className="guarded-head">
            <span role="columnheader">Raw, as the tool gave it</span>
            <span role="columnheader">What agents receive</span>
          </div>
          <div role="row" className="guarded-row">
            <pre role="cell" data-testid="guarded-raw">
              {visible(valueText(result.value))}
            </pre>
            <pre role="cell" data-testid="guarded-value">
              {visible(valueText('value' in guard ? guard.value : result.value))}
            </pre>
          </div>
        </div>
      )}
    </section>
  );
}
