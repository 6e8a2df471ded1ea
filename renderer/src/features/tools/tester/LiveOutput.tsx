/**
 * A run's output as it streams: a log that grows and follows its end, unless the person
 * scrolled up to read (then it stays where they are until they scroll back down). With a
 * `label`, it goes without its own heading (inside a disclosure that names it).
 */
import { useLayoutEffect, useRef } from 'react';
import './LiveOutput.css';

export function outputBytes(output: string): string {
  return `${new Intl.NumberFormat().format(new TextEncoder().encode(output).length)} bytes`;
}

export function LiveOutput({ output, running, testId = 'live-output', label }: { output: string; running: boolean; testId?: string; label?: string }) {
  const box = useRef<HTMLPreElement>(null);
  const follow = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [output]);
  return (
    <div className="live-output-wrap">
      {!label && (
        <div className="live-output-head">
          <span className="live-output-title" id={`${testId}-title`}>
            {running && <span className="live-dot" aria-hidden="true" />}
            {running ? 'Live output' : 'Output'}
          </span>
          <span className="muted">{outputBytes(output)}</span>
        </div>
      )}
      <pre
        ref={box}
        className="code-block live-output"
        role="log"
        {...(label ? { 'aria-label': label } : { 'aria-labelledby': `${testId}-title` })}
        aria-live="off"
        tabIndex={0}
        data-testid={testId}
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {output || <span className="muted">{running ? 'Waiting for output…' : 'No output.'}</span>}
      </pre>
    </div>
  );
}
