/**
 * Streaming and cancelling across processes, with real ones: `toolwright run --stream` prints
 * output as it arrives (the upstream holds its second half until the CLI printed the first),
 * Ctrl-C cancels cleanly (exit 130, the upstream request closed), a CLI run is cancelled
 * through the host's REST endpoint, and a host run through `toolwright cancel`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../helpers/host.js';
import { startToolwright } from '../../helpers/procs.js';
import type { LoopbackServer } from '../../helpers/loopback-http.js';
import { setUpLiveTools, type LiveTools } from '../../helpers/live-tools.js';
import { chunkText, postSse } from '../../helpers/sse.js';

let h: TestHost;
let upstream: LoopbackServer;
let bundleID: string;
let open: LiveTools['open'];
let releaseSecond: () => void;

interface Child {
  proc: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stdout contains text. */
  printed(text: string): Promise<void>;
  exit: Promise<number | null>;
}

function tw(args: string[]): Child {
  const proc = startToolwright(h.dataDir, args);
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  proc.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    for (const w of waiters.filter((x) => stdout.includes(x.text))) w.resolve();
  });
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return {
    proc,
    stdout: () => stdout,
    stderr: () => stderr,
    printed: (text) => (stdout.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve }))),
    exit: new Promise((resolve) => proc.on('close', (code) => resolve(code))),
  };
}

async function closedWithin(count: number, ms = 5000): Promise<void> {
  for (let waited = 0; [...open].length > count && waited < ms; waited += 25) await new Promise((r) => setTimeout(r, 25));
}

beforeAll(async () => {
  h = await startHost();
  ({ upstream, bundleID, open, releaseSecond } = await setUpLiveTools(h));
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  await h?.close();
});

describe('toolwright run, streamed and stopped', () => {
  it('--stream prints the output as it arrives; the value is not printed twice', async () => {
    const child = tw(['run', 'live/halves', '--stream']);
    await child.printed('first line\n');
    expect(child.stdout()).not.toContain('second line');
    releaseSecond();
    expect(await child.exit).toBe(0);
    expect(child.stdout()).toBe('first line\nsecond line\n');
  });

  it('Ctrl-C cancels the run cleanly: exit 130, the upstream request closed, history says cancelled', async () => {
    const child = tw(['run', 'live/forever', '--stream']);
    await child.printed('tick\n');
    child.proc.kill('SIGINT');
    expect(await child.exit).toBe(130);
    expect(child.stderr()).toContain('stopping the run');
    expect(child.stderr()).toContain('CANCELLED');
    await closedWithin(0);
    expect(open.size).toBe(0);
    const history = await h.api('GET', `/tools/bundles/${bundleID}/tools/forever/version/v1/history`);
    expect(history.body.items[0]).toMatchObject({ status: 'cancelled', caller: 'cli' });
  });

  it('a run of the CLI is cancelled through the host: POST /tools/invocations/{id}/cancel', async () => {
    const invocationID = `cli-${uuidv7()}`;
    const child = tw(['--json', 'run', 'live/forever', '--invocation-id', invocationID]);
    // --json prints only the answer; the run is going once the upstream was asked, and
    // cancellable from elsewhere once the CLI registered it under <data>/invocations/.
    const registered = join(h.dataDir, 'invocations', `${invocationID}.json`);
    await expect.poll(() => open.size === 1 && existsSync(registered), { timeout: 60_000 }).toBe(true);
    const cancel = await h.api('POST', `/tools/invocations/${invocationID}/cancel`);
    expect(cancel.body).toEqual({ cancelled: true });
    expect(await child.exit).toBe(1);
    expect(JSON.parse(child.stdout())).toMatchObject({ ok: false, invocationID, error: { code: 'CANCELLED' } });
    await closedWithin(0);
    expect(open.size).toBe(0);
    expect((await h.api('POST', `/tools/invocations/${invocationID}/cancel`)).body).toEqual({ cancelled: false });
  });

  it('a run of the host is cancelled by another process: toolwright cancel', async () => {
    const invocationID = `host-${uuidv7()}`;
    let canceller: Child | undefined;
    const answer = await postSse(
      `${h.url}/tools/bundles/${bundleID}/tools/forever/version/v1/invoke?stream=true`,
      h.token,
      { invocationID },
      {
        onEvent: (e) => {
          if (e.event === 'chunk' && !canceller) canceller = tw(['cancel', invocationID]);
        },
      },
    );
    expect(await canceller!.exit).toBe(0);
    expect(canceller!.stdout()).toBe(`cancelled ${invocationID}\n`);
    expect(chunkText(answer.events)).toMatch(/^(tick\n)+$/);
    expect(answer.events.at(-1)).toMatchObject({ event: 'result', data: { ok: false, error: { code: 'CANCELLED' } } });
    const none = tw(['cancel', 'no-such-run']);
    expect(await none.exit).toBe(2);
    expect(none.stdout()).toContain('no run no-such-run is in progress');
  });
});
