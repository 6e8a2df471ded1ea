/** Small statistics and timing helpers shared by the benchmark parts. */
import { request as httpRequest, type Agent } from 'node:http';

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

/** Times a and b in alternating order, n samples each after `warmup` rounds left uncounted. */
export async function interleaved(n: number, a: () => Promise<unknown>, b: () => Promise<unknown>, warmup = 100): Promise<[number[], number[]]> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < n + warmup; i++) {
    for (const side of i % 2 ? ['a', 'b'] : ['b', 'a']) {
      const t0 = performance.now();
      await (side === 'a' ? a() : b());
      if (i >= warmup) (side === 'a' ? as : bs).push(performance.now() - t0);
    }
  }
  return [as, bs];
}

/** A raw POST over a kept-alive connection: the answer's status, headers and whole body, nothing parsed. */
export function rawPost(
  url: string,
  agent: Agent,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
