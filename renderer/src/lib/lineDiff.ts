/** A line diff (longest common subsequence) of two texts, for comparing two runs side by side. */
export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string };

const MAX_LINES = 2000;

export function lineDiff(a: string, b: string): DiffLine[] {
  const x = a.split('\n').slice(0, MAX_LINES);
  const y = b.split('\n').slice(0, MAX_LINES);
  const n = x.length;
  const m = y.length;
  // lcs[i][j]: length of the LCS of x[i..] and y[j..], in one flat array.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = x[i] === y[j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      out.push({ kind: 'same', text: x[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!) out.push({ kind: 'removed', text: x[i++]! });
    else out.push({ kind: 'added', text: y[j++]! });
  }
  while (i < n) out.push({ kind: 'removed', text: x[i++]! });
  while (j < m) out.push({ kind: 'added', text: y[j++]! });
  return out;
}
