/**
 * A separate OS process for the race and crash tests. Modes:
 *   create  <dataDir> <bundleID> <rounds>  — try to create race-<r>/1 for every round, print one result line per attempt
 *   publish <dataDir> <bundleID> <rounds>  — publish the claim directly, WITHOUT the lock (proper-lockfile #121 stand-in)
 *   churn   <dataDir> <bundleID>           — write forever (creates, switches, edits, bundle replaces) until killed
 *   hold    <lockPath> <staleMs>            — take a lock, say "held", and wait to be killed
 *   metrics <metricsDir> <toolID> <calls>    — record calls in small batches, flushing between them
 *   invoke  <dataDir> <bundleID> <calls>     — run the tool limited/v1 that many times, one result line per call
 *   audit   <auditDir> <writers> <records>   — that many audit writers in this process, each appending its records (flushing between some)
 *   tear    <auditFile>                      — append half a record to an audit file, say "torn", and wait to be killed
 */
import { appendFileSync, writeSync } from 'node:fs';
import { v7 as uuidv7 } from 'uuid';
import lockfile from 'proper-lockfile';
import { openTestStore, functionTool } from './store.js';
import { Claims } from '../../electron/core/store/claims.js';
import { DataPaths } from '../../electron/core/data-paths.js';
import { MetricsStore } from '../../electron/core/metrics.js';
import { AuditLog } from '../../electron/core/audit/writer.js';

const [mode, a, b, c] = process.argv.slice(2);
const out = (line: unknown) => writeSync(1, JSON.stringify(line) + '\n');

/** Under runTogether (procs.ts): says it is loaded, then waits for the go, the end of its stdin. */
async function waitForGo(): Promise<void> {
  if (process.env['RACE_GO'] !== 'stdin') return;
  out({ ready: true });
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.resume();
  });
}

async function main(): Promise<void> {
  if (mode === 'create') {
    const t = await openTestStore({ dataDir: a! });
    await waitForGo();
    for (let r = 0; r < Number(c); r++) {
      try {
        const tool = await t.tools.create({ bundleID: b!, slug: `race-${r}`, version: '1' }, functionTool());
        out({ r, ok: true, toolID: tool.toolID });
      } catch (e) {
        out({ r, ok: false, code: (e as { code?: string }).code ?? 'THROWN', message: (e as Error).message });
      }
    }
  } else if (mode === 'publish') {
    const claims = new Claims(new DataPaths(a!));
    await waitForGo();
    for (let r = 0; r < Number(c); r++) {
      const won = await claims.publish(b!, `pub-${r}`, '1', `${process.pid}-${r}`);
      out({ r, ok: won });
    }
  } else if (mode === 'churn') {
    const t = await openTestStore({ dataDir: a! });
    out({ ready: true });
    for (let i = 0; ; i++) {
      const slug = `c${i % 7}`;
      try {
        if (i % 3 === 0) await t.bundles.put(b!, { slug: `bundle-${i}`, displayName: `Bundle ${i}`.repeat(20), description: 'x'.repeat(i % 500) });
        const existing = t.store.state.pairOwner(b!, slug, '1');
        if (!existing) {
          await t.tools.create({ bundleID: b!, slug, version: '1' }, functionTool({ description: 'd'.repeat(2000 + i) }));
          out({ created: slug });
        } else if (i % 2) await t.tools.setEnabled({ bundleID: b!, slug, version: '1' }, i % 4 === 1);
        else await t.tools.update({ bundleID: b!, slug, version: '1' }, functionTool({ description: `edit ${i} `.repeat(300) }));
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code !== 'CONFLICT' && code !== 'NOT_FOUND') out({ error: code, message: (e as Error).message });
      }
    }
  } else if (mode === 'metrics') {
    const m = new MetricsStore(a!, 5);
    await waitForGo();
    for (let i = 0; i < Number(c); i++) {
      m.record(b!, i % 10 !== 0);
      if (i % 7 === 0) await m.flush();
    }
    await m.close();
    out({ done: true });
  } else if (mode === 'invoke') {
    // Only this mode opens the whole core: the crash test starts 25 churn workers, which need the store alone.
    const { createCore } = await import('../../electron/core/app-core.js');
    const core = await createCore({ dataDir: a!, docker: false });
    await waitForGo();
    for (let i = 0; i < Number(c); i++) {
      const result = await core.invocations.invoke({ bundleID: b!, slug: 'limited', version: 'v1' }, { args: { expression: '1 + 1' } }).then(
        (r) => ({ ok: r.ok }),
        (e: { code?: string }) => ({ ok: false, code: e.code ?? 'THROWN' }),
      );
      out(result);
    }
    await core.close();
  } else if (mode === 'audit') {
    await waitForGo();
    await Promise.all(
      Array.from({ length: Number(b) }, async (_, w) => {
        const log = new AuditLog({ dir: a!, maxFileBytes: () => Number(process.env['AUDIT_MAX_FILE_BYTES'] ?? 16 * 1024 * 1024) });
        for (let i = 0; i < Number(c); i++) {
          await log.append({ kind: 'change', path: `writer/${process.pid}-${w}/${i}`, op: 'create', actor: 'cli', after: 'a'.repeat(64) });
        }
        await log.close();
      }),
    );
    out({ done: true });
  } else if (mode === 'tear') {
    appendFileSync(a!, '{"seq":99,"at":"2026-01-01T00:00:00.000Z","kind":"call","to');
    out({ torn: true });
    setInterval(() => undefined, 1000);
    await new Promise(() => undefined);
  } else if (mode === 'hold') {
    await lockfile.lock(a!, { stale: Number(b), update: Number(b) / 2, realpath: false, lockfilePath: a! });
    out({ held: uuidv7() });
    setInterval(() => undefined, 1000); // keep the process alive until it is killed
    await new Promise(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    out({ fatal: String(e?.stack ?? e) });
    process.exit(1);
  },
);
