/** The card settings' colours: what the swatch paints and what the picker gets and gives back. */
import { describe, expect, it } from 'vitest';
import { parseColor, withPickedColor } from '../../renderer/src/features/tools/editor/color.js';

describe('parseColor', () => {
  it('reads hex in its four lengths and rgb()/rgba() in comma and space syntax', () => {
    expect(parseColor('#4A90D4')).toEqual({ hex: '#4a90d4', alpha: 1 });
    expect(parseColor('#abc')).toEqual({ hex: '#aabbcc', alpha: 1 });
    expect(parseColor('#abc8')).toEqual({ hex: '#aabbcc', alpha: 0.533 });
    expect(parseColor('#4a90d480')).toEqual({ hex: '#4a90d4', alpha: 0.502 });
    expect(parseColor('rgba(74,144,212,0.10)')).toEqual({ hex: '#4a90d4', alpha: 0.1 });
    expect(parseColor('rgb(74 144 212 / 25%)')).toEqual({ hex: '#4a90d4', alpha: 0.25 });
    expect(parseColor('rgb(100%, 0%, 0%)')).toEqual({ hex: '#ff0000', alpha: 1 });
  });
  it('answers null for what it does not read (names, hsl, garbage)', () => {
    for (const v of ['teal', 'hsl(0 100% 50%)', 'rgba(1,2)', 'rgb(1,2,3,4) / 1', '#12345', 'url(x)']) expect(parseColor(v)).toBeNull();
  });
});

describe('withPickedColor', () => {
  it('keeps the alpha of what was written, and plain hex when it was opaque', () => {
    expect(withPickedColor('rgba(74,144,212,0.10)', '#ff8800')).toBe('rgba(255,136,0,0.1)');
    expect(withPickedColor('#4a90d4', '#ff8800')).toBe('#ff8800');
    expect(withPickedColor('', '#ff8800')).toBe('#ff8800');
  });
});
