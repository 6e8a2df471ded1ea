/**
 * Guard bench (issue 33): the definition guard (shared/guard/analyse.ts) on the poisoning
 * development set (../shared/testdata/poisoning/dev.json; test/bench/guard/dataset.ts holds the
 * fixed split), beside a plain keyword scanner in the same run (JSON of the definition searched
 * for the words naive scanners use). Printed for the tuning part and the held-out part (never
 * tuned on), per attack class and per source: recall on poisoned definitions (caught as an
 * error; "noticed" counts warnings too), false flags (errors) on real definitions, and the time
 * per definition (p50, p95). Goals: recall ≥ 0.9 on the attack classes, ≤ 1 % of real tools
 * flagged as errors, p95 ≤ 1 ms.
 *
 * Run alone: npx tsx test/bench/guard.ts   (GUARD_BENCH_SHOW=1 lists the tuning part's misses and false flags)
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { guardDefinition } from '../../shared/guard/analyse.js';
import { guardOutput } from '../../shared/guard/output.js';
import type { GuardDefinition, GuardReport } from '../../shared/guard/types.js';
import { collectionOf, loadDevSet, splitDevSet, type DevItem, type Part } from './guard/dataset.js';
import { quantile } from './util.js';

/** Classes that are attacks in a definition alone; the other two need the tools beside it. */
export const CONTEXT_ONLY = new Set(['preference-manipulation', 'function-overlapping']);
const ROUNDS = 20;

const NAIVE = /ignore (?:all |previous )+instructions|<important>|do not tell|id_rsa|\/etc\/passwd|curl |system prompt/i;

function definitionOf(item: DevItem): GuardDefinition {
  const t = item.tool!;
  return { name: t.name, description: t.description ?? '', inputSchema: t.inputSchema ?? undefined };
}

interface Tally {
  n: number;
  caught: number;
  noticed: number;
}
const tally = (): Tally => ({ n: 0, caught: 0, noticed: 0 });
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '—');
const ratio = (a: number, b: number) => (b ? (a / b).toFixed(3) : '—');

/** Every run's time, and each definition's best run (its cost when no other process preempts it: the machine is shared). */
function timeEach(defs: GuardDefinition[], run: (d: GuardDefinition) => unknown): { all: number[]; best: number[] } {
  for (const d of defs) run(d);
  const all: number[] = [];
  const best = defs.map(() => Infinity);
  for (let r = 0; r < ROUNDS; r++)
    defs.forEach((d, i) => {
      const t0 = performance.now();
      run(d);
      const t = performance.now() - t0;
      all.push(t);
      best[i] = Math.min(best[i]!, t);
    });
  return { all, best };
}

function report(part: Part, items: DevItem[], show: boolean): void {
  const defs = items.filter((i) => i.kind === 'definition');
  const byClass = new Map<string, Tally>();
  const bySource = new Map<string, { poisoned: Tally; benign: Tally }>();
  const pooled = { attack: tally(), context: tally(), benign: tally(), naiveAttack: tally(), naiveBenign: tally() };
  const reports = new Map<string, GuardReport>();
  for (const item of defs) {
    const r = guardDefinition(definitionOf(item));
    reports.set(item.id, r);
    const caught = r.worst === 'error' ? 1 : 0;
    const noticed = r.worst ? 1 : 0;
    const naive = NAIVE.test(JSON.stringify(item.tool)) ? 1 : 0;
    const src = collectionOf(item.source);
    const s = bySource.get(src) ?? bySource.set(src, { poisoned: tally(), benign: tally() }).get(src)!;
    if (item.label === 'benign' || !CONTEXT_ONLY.has(item.attack!)) {
      const side = item.label === 'poisoned' ? s.poisoned : s.benign;
      side.n++;
      side.caught += caught;
      side.noticed += noticed;
    }
    if (item.label === 'poisoned') {
      const c = byClass.get(item.attack!) ?? byClass.set(item.attack!, tally()).get(item.attack!)!;
      c.n++;
      c.caught += caught;
      c.noticed += noticed;
      const pool = CONTEXT_ONLY.has(item.attack!) ? pooled.context : pooled.attack;
      pool.n++;
      pool.caught += caught;
      pool.noticed += noticed;
      if (!CONTEXT_ONLY.has(item.attack!)) {
        pooled.naiveAttack.n++;
        pooled.naiveAttack.caught += naive;
      }
      if (show && part === 'tuning' && !caught)
        console.log(`    MISS ${item.id} [${item.attack}] ${r.findings.map((f) => `${f.severity}:${f.class}`).join(', ') || 'no finding'}`);
    } else {
      pooled.benign.n++;
      pooled.benign.caught += caught;
      pooled.benign.noticed += noticed;
      pooled.naiveBenign.n++;
      pooled.naiveBenign.caught += naive;
      if (show && part === 'tuning' && caught)
        for (const f of r.findings.filter((x) => x.severity === 'error'))
          console.log(`    FALSE ${item.id} ${f.class} ${f.pointer}: ${f.message} «${f.span.text.slice(0, 160)}»`);
    }
  }
  const heldNote = part === 'held-out' ? ' (never tuned on)' : '';
  console.log(`\n  ${part}${heldNote}: ${defs.length} definitions (${pooled.attack.n + pooled.context.n} poisoned, ${pooled.benign.n} real)`);
  console.log(`  ${'attack class'.padEnd(26)} ${'n'.padStart(4)}  ${'recall (error)'.padStart(15)}  ${'noticed (any)'.padStart(14)}`);
  for (const [cls, t] of [...byClass].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const mark = CONTEXT_ONLY.has(cls) ? '  (attack only in context: not in the goal)' : '';
    console.log(`  ${cls.padEnd(26)} ${String(t.n).padStart(4)}  ${ratio(t.caught, t.n).padStart(15)}  ${ratio(t.noticed, t.n).padStart(14)}${mark}`);
  }
  console.log(
    `  ${'ATTACK CLASSES POOLED'.padEnd(26)} ${String(pooled.attack.n).padStart(4)}  ${ratio(pooled.attack.caught, pooled.attack.n).padStart(15)}  ${ratio(pooled.attack.noticed, pooled.attack.n).padStart(14)}   goal ≥ 0.9; keyword baseline ${ratio(pooled.naiveAttack.caught, pooled.naiveAttack.n)}`,
  );
  console.log(
    `  real definitions flagged as errors: ${pooled.benign.caught}/${pooled.benign.n} = ${pct(pooled.benign.caught, pooled.benign.n)} (goal ≤ 1 %; keyword baseline ${pct(pooled.naiveBenign.caught, pooled.naiveBenign.n)}); with any finding: ${pct(pooled.benign.noticed, pooled.benign.n)}`,
  );
  console.log(`  ${'source (attack classes only)'.padEnd(46)} ${'poisoned: n  recall'.padStart(20)}   ${'real: n  false flags'.padStart(22)}`);
  for (const [src, s] of [...bySource].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const p = s.poisoned.n ? `${String(s.poisoned.n).padStart(4)}  ${ratio(s.poisoned.caught, s.poisoned.n)}` : '';
    const b = s.benign.n ? `${String(s.benign.n).padStart(4)}  ${pct(s.benign.caught, s.benign.n)}` : '';
    console.log(`  ${src.padEnd(46)} ${p.padStart(20)}   ${b.padStart(22)}`);
  }
  const outputs = items.filter((i) => i.kind === 'output');
  const outputFlagged = outputs.filter((i) => guardOutput(i.text, 'flag').note).length;
  console.log(
    `  injected tool outputs the output guard flags: ${outputFlagged}/${outputs.length} (it strips markup and hidden characters, and only flags orders in prose)`,
  );
  const all = defs.map(definitionOf);
  const ours = timeEach(all, (d) => guardDefinition(d));
  const base = timeEach(all, (d) => NAIVE.test(JSON.stringify(d)));
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  console.log(
    `  time per definition (best of ${ROUNDS} runs each): p50 ${us(quantile(ours.best, 0.5))}, p95 ${us(quantile(ours.best, 0.95))}, max ${us(quantile(ours.best, 1))} (goal p95 ≤ 1 ms); keyword baseline p95 ${us(quantile(base.best, 0.95))}, ratio ${(quantile(ours.best, 0.95) / quantile(base.best, 0.95)).toFixed(0)}x`,
  );
  console.log(
    `  time per definition (every run, wall clock at load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores): p50 ${us(quantile(ours.all, 0.5))}, p95 ${us(quantile(ours.all, 0.95))}`,
  );
}

/** More real tools, not in the development set: the tool-search corpus's 12,828 operations of public APIs. */
function corpusFalseFlags(): void {
  const path = fileURLToPath(new URL('../../../shared/testdata/toolsearch/corpus.json', import.meta.url));
  if (!existsSync(path)) return;
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.replace(/,$/, ''))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { slug: string; displayName: string; description: string; argSchema: unknown });
  let errors = 0;
  let warnings = 0;
  for (const r of rows) {
    const worst = guardDefinition({ name: r.slug, title: r.displayName, description: r.description, inputSchema: r.argSchema }).worst;
    if (worst === 'error') errors++;
    else if (worst) warnings++;
  }
  console.log(
    `\n  more real tools (tool-search corpus, ${rows.length.toLocaleString('en-US')} operations of public APIs, its false flags looked at while tuning, so not a held-out figure): flagged as errors ${errors} = ${((100 * errors) / rows.length).toFixed(2)} %, warnings only ${pct(warnings, rows.length)}`,
  );
}

export async function run(): Promise<void> {
  const items = loadDevSet();
  const parts = splitDevSet(items);
  const show = !!process.env['GUARD_BENCH_SHOW'];
  for (const part of ['tuning', 'held-out'] as const)
    report(
      part,
      items.filter((i) => parts.get(i.id) === part),
      show,
    );
  corpusFalseFlags();
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await run();
