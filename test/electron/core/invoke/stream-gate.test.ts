/**
 * The stream's rules: redaction that catches a secret split across chunks (at every split point,
 * in every wire form), the byte cap across chunks cut at a UTF-8 boundary, step events redacted
 * whole, nothing after the end, and a listener that throws never reaching the run.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { REDACTED, SecretRedactor } from '../../../../electron/core/secrets/redact.js';
import { StreamGate } from '../../../../electron/core/invoke/stream-gate.js';
import type { InvokeStreamEvent } from '../../../../shared/types.js';

const SECRET = 'sk-live-4f9a"b c/d';

function streamed(redactor: SecretRedactor, pieces: string[]): string {
  const r = redactor.streaming();
  return pieces.map((p) => r.push(p)).join('') + r.end();
}

describe('streaming redaction', () => {
  const redactor = SecretRedactor.of([SECRET, 'tok_abcdef']);

  it('catches a secret cut at every point between two chunks, in each of its wire forms', () => {
    for (const form of [SECRET, encodeURIComponent(SECRET), JSON.stringify(SECRET).slice(1, -1), 'tok_abcdef']) {
      const text = `before ${form} after`;
      for (let cut = 0; cut <= text.length; cut++) {
        const out = streamed(redactor, [text.slice(0, cut), text.slice(cut)]);
        expect(out).toBe(`before ${REDACTED} after`);
      }
    }
  });

  it('gives what whole-text redaction gives, however the text is cut (property)', () => {
    const alphabet = fc.constantFrom(...'sk-live-4f9a"b c/dtok_abcdefxyz '.split(''));
    fc.assert(
      fc.property(fc.array(fc.string({ unit: alphabet, maxLength: 30 }), { maxLength: 8 }), (pieces) => {
        expect(streamed(redactor, pieces)).toBe(redactor.text(pieces.join('')));
      }),
      { numRuns: 400 },
    );
  });

  it('holds nothing back when no secret could be starting, so plain output is not delayed', () => {
    const r = redactor.streaming();
    expect(r.push('line one\n')).toBe('line one\n');
    expect(r.push('ends with tok_ab')).toBe('ends with ');
    expect(r.push('cdef!\n')).toBe(`${REDACTED}!\n`);
    expect(SecretRedactor.of([]).streaming().push('sk-')).toBe('sk-');
  });
});

describe('StreamGate', () => {
  const collect = () => {
    const events: InvokeStreamEvent[] = [];
    return { events, text: () => events.map((e) => (e.type === 'chunk' ? e.text : '')).join(''), listen: (e: InvokeStreamEvent) => void events.push(e) };
  };

  it('stops chunks at maxOutputBytes over the whole stream, cut at a UTF-8 boundary', () => {
    const out = collect();
    const gate = new StreamGate(out.listen, SecretRedactor.of([]), 10);
    gate.emit({ type: 'chunk', text: 'abcd' });
    gate.emit({ type: 'chunk', text: 'ééé' }); // 6 bytes: 10 in all
    gate.emit({ type: 'chunk', text: 'x' });
    gate.finish();
    expect(out.text()).toBe('abcdééé… [truncated: original 11 bytes; the stream stopped after 10]');
    expect(gate.truncation()).toEqual({ originalBytes: 11, sentBytes: 10 });
    const cut = collect();
    const g2 = new StreamGate(cut.listen, SecretRedactor.of([]), 9);
    g2.emit({ type: 'chunk', text: 'abcd' });
    g2.emit({ type: 'chunk', text: 'ééé' }); // the third é would pass 9 bytes: no half character
    g2.emit({ type: 'chunk', text: 'more' });
    expect(cut.text()).toBe('abcdéé');
    expect(Buffer.byteLength(cut.text())).toBeLessThanOrEqual(9);
    expect(g2.capped).toBe(true);
    g2.finish();
    expect(cut.text()).toBe('abcdéé… [truncated: original 14 bytes; the stream stopped after 8]');
  });

  it('says nothing more when the stream fits', () => {
    const out = collect();
    const gate = new StreamGate(out.listen, SecretRedactor.of([]), 10);
    gate.emit({ type: 'chunk', text: 'abcdééé' });
    gate.finish();
    expect(out.text()).toBe('abcdééé');
    expect(gate.truncation()).toBeUndefined();
  });

  it('redacts step events whole and lets nothing through after the run ended', () => {
    const out = collect();
    const gate = new StreamGate(out.listen, SecretRedactor.of([SECRET]), 1000);
    gate.emit({ type: 'step', step: { id: 's1', tool: { bundleID: 'b', slug: 'x', version: 'v1' }, status: 'ok', value: { key: SECRET } } });
    gate.emit({ type: 'chunk', text: 'held sk-live' });
    gate.finish();
    gate.emit({ type: 'chunk', text: 'late' });
    expect(JSON.stringify(out.events)).not.toContain('4f9a');
    expect(out.events[0]).toMatchObject({ type: 'step', step: { value: { key: REDACTED } } });
    expect(out.text()).toBe('held sk-live');
  });

  it('keeps a throwing listener away from the run and stops calling it', () => {
    const errors: unknown[] = [];
    let calls = 0;
    const gate = new StreamGate(
      () => {
        calls++;
        throw new Error('socket gone');
      },
      SecretRedactor.of([]),
      100,
      (e) => errors.push(e),
    );
    expect(() => gate.emit({ type: 'chunk', text: 'a' })).not.toThrow();
    gate.emit({ type: 'chunk', text: 'b' });
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
