/**
 * Card html nested thousands of levels deep (DOMPurify on jsdom overflows the stack or refuses
 * it) costs the card, never the result: the run answers ok with its value and a note saying why
 * the html was dropped, and an ordinary card beside it still comes through sanitised.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CARD_HTML_DEPTH } from '../../../../shared/card/depth.js';
import { bundleFile, engineTool, harness, type Harness } from '../../../helpers/engine-fixtures.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const nested = (depth: number) => '<div>'.repeat(depth) + 'deep' + '</div>'.repeat(depth);

describe('a card nested too deep', () => {
  it.each([5_000, 50_000])('%i nested divs: ok with the value and a note, the html dropped', async (depth) => {
    h = await harness();
    h.runner.behaviour = () => ({ value: { answer: 42 }, card: { title: 'Deep', html: nested(depth) } });
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.value).toEqual({ answer: 42 });
    expect(r.card?.html).toBeUndefined();
    expect(r.card?.note).toMatch(new RegExp(`nests deeper than ${MAX_CARD_HTML_DEPTH}`));
    expect(r.card?.title).toBe('Deep');
    expect(r.card?.text).toBe(JSON.stringify({ answer: 42 }, null, 2)); // the value stands in
  });

  it('html just within the limit, and an ordinary card, still render sanitised', async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: 1, card: { html: nested(MAX_CARD_HTML_DEPTH - 2) + '<img src=x onerror=alert(1)>' } });
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(r.ok).toBe(true);
    expect(r.card?.note).toBeUndefined();
    expect(r.card?.html).toContain('deep');
    expect(r.card?.html).not.toContain('onerror');
    h.runner.behaviour = () => ({ value: 1, card: { title: 'Sunny', html: '<b>14°</b><script>alert(1)</script>', text: '14°' } });
    const plain = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(plain.card).toEqual({ title: 'Sunny', html: '<b>14°</b>', text: '14°' });
  });
});
