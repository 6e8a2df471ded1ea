import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../renderer/src/lib/lineDiff.js';

describe('line diff for comparing runs', () => {
  it('keeps common lines and marks removed and added ones in order', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'd' },
    ]);
    expect(lineDiff('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
  });
  it('rebuilds both texts from its lines', () => {
    const a = '{\n  "x": 1,\n  "y": [1, 2]\n}';
    const b = '{\n  "x": 2,\n  "y": [1, 2],\n  "z": true\n}';
    const d = lineDiff(a, b);
    expect(
      d
        .filter((l) => l.kind !== 'added')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(a);
    expect(
      d
        .filter((l) => l.kind !== 'removed')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(b);
  });
});
