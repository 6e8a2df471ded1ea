/**
 * Function tools: the built-in core tools invoked through the function runner (lookup,
 * argument validation against the function's argSchema, result wrapping) against a direct
 * call of the same function with the same arguments, interleaved in one run.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { createFunctionRegistry } from '../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../electron/core/tool-types/function/runner.js';
import { defaultRegexSandbox } from '../../electron/core/functions/regex.js';
import type { RunContext } from '../../electron/core/invoke/types.js';
import { DEFAULT_CONFIG, type ToolFile } from '../../shared/schemas.js';
import { quantile } from './util.js';

const CORE_TOOLS = fileURLToPath(new URL('../../data/builtin/0190a000-0000-7000-8000-00000000c0e0/tools', import.meta.url));
const WARMUP = 2_000;
const CALLS = 20_000;

function coreTool(toolID: string): ToolFile {
  return JSON.parse(readFileSync(path.join(CORE_TOOLS, toolID, 'tool.json'), 'utf8')) as ToolFile;
}

const micros = (ns: number) => `${(ns / 1000).toFixed(2).padStart(7)} µs`;

async function compare(label: string, tool: ToolFile, args: Record<string, unknown>): Promise<void> {
  const registry = createFunctionRegistry();
  const runner = createFunctionRunner(registry);
  const def = registry.get((tool.impl as { function: string }).function)!;
  const ctx: RunContext = {
    invocationID: 'bench',
    tool,
    toolDir: path.join(CORE_TOOLS, tool.toolID),
    args,
    config: DEFAULT_CONFIG,
    secrets: { get: () => undefined, has: () => false, values: () => [] },
    signal: new AbortController().signal,
  };
  const direct: number[] = [];
  const viaRunner: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    // Alternate which goes first so neither side always runs on a warmer cache.
    const order = i % 2 === 0 ? ['direct', 'runner'] : ['runner', 'direct'];
    for (const side of order) {
      const t0 = process.hrtime.bigint();
      if (side === 'direct') await def.run(args, ctx);
      else await runner.run(ctx);
      const dt = Number(process.hrtime.bigint() - t0);
      if (i >= WARMUP) (side === 'direct' ? direct : viaRunner).push(dt);
    }
  }
  const [d50, d95, r50, r95] = [quantile(direct, 0.5), quantile(direct, 0.95), quantile(viaRunner, 0.5), quantile(viaRunner, 0.95)];
  console.log(`  ${label}  (${CALLS} calls each, interleaved)`);
  console.log(`    direct call   p50 ${micros(d50)}   p95 ${micros(d95)}`);
  console.log(`    via runner    p50 ${micros(r50)}   p95 ${micros(r95)}`);
  console.log(`    runner/direct p50 ${(r50 / d50).toFixed(2)}×   p95 ${(r95 / d95).toFixed(2)}×   (overhead p50 ${((r50 - d50) / 1000).toFixed(2)} µs)`);
}

export async function run(): Promise<void> {
  console.log('function tools: runner vs direct call of the same function');
  await compare('core.calc "2 * (3 + 4) ^ 2 / sqrt(16)"', coreTool('0190a000-0000-7000-8000-00000000c001'), { expression: '2 * (3 + 4) ^ 2 / sqrt(16)' });
  await compare('core.uuid v7 × 10', coreTool('0190a000-0000-7000-8000-00000000c004'), { version: 7, count: 10 });
  await compare('core.textStats (1 KB of text)', coreTool('0190a000-0000-7000-8000-00000000c006'), {
    text: 'The quick brown fox jumps over the lazy dog. '.repeat(23),
  });
  await defaultRegexSandbox.close();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
