/** Small statistics helpers shared by the benchmark parts. */
export function quantile(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i]!;
}

export const median = (s: number[]) => quantile(s, 0.5);

export function fmt(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(0)} µs`;
}

export function row(label: string, ours: number, base: number, unit = 'ms'): string {
  const ratio = ours / base;
  const show = (v: number) => (unit === 'ms' ? fmt(v) : `${v.toFixed(1)} ${unit}`);
  return `  ${label.padEnd(44)} ours ${show(ours).padStart(10)}   baseline ${show(base).padStart(10)}   ratio ${ratio.toFixed(2)}x`;
}

export async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}
