/**
 * The client command the MCP conformance suite starts for its client scenarios
 * (`conformance client --command "…" --scenario auth/…`): Toolwright's upstream client, driven
 * through its CLI as a person would drive it, on a data folder of its own. The suite appends
 * the URL of its MCP server and names the scenario in MCP_CONFORMANCE_SCENARIO (and, for a
 * pre-registered client, its ID and secret in MCP_CONFORMANCE_CONTEXT).
 *
 *   toolwright add-server conf --url <url> [--client-id … --client-secret …] --client-metadata-url …
 *   toolwright authorize conf           (this script plays the browser: it follows the link)
 *   toolwright sync conf
 *   toolwright enable conf/test-tool && toolwright run conf/test-tool --args '{}'
 *
 * Whenever Toolwright says the server needs a sign-in (the first 401, a step-up to a larger
 * scope), the script signs in again as the person would, at most MAX_SIGN_INS times in all;
 * Toolwright itself decides when signing in again would help. The suite's authorization server
 * approves at once and redirects to Toolwright's loopback listener, so following the redirect is
 * the whole of the person's part. The client-metadata URL is the one the suite's reference
 * clients send (used only when the authorization server advertises client ID metadata documents).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToolwright, startToolwright, type ToolwrightRun } from './procs.js';

export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const MAX_SIGN_INS = 3;
const SLUG = 'conf';

const serverUrl = process.argv.at(-1)!;
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string };
const dataDir = await mkdtemp(join(tmpdir(), 'tw-conformance-client-'));
let signIns = 0;

function log(line: string): void {
  process.stderr.write(`[driver] ${line}\n`);
}

async function tw(args: string[], input?: string): Promise<ToolwrightRun> {
  const started = Date.now();
  const run = await runToolwright(dataDir, args, input === undefined ? {} : { input });
  log(`toolwright ${args.join(' ')} → exit ${run.code} in ${Date.now() - started} ms\n${run.stdout}${run.stderr}`);
  return run;
}

/** Toolwright says so, naming the command that signs in. */
const needsSignIn = (run: ToolwrightRun) => /`toolwright authorize /.test(run.stdout + run.stderr);

/** `toolwright authorize`, with the link followed as a browser would (each redirect, to the loopback callback). */
async function signIn(): Promise<void> {
  if (++signIns > MAX_SIGN_INS) throw new Error(`Toolwright asked for more than ${MAX_SIGN_INS} sign-ins`);
  const child = startToolwright(dataDir, ['authorize', SLUG, '--timeout', '60']);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const ended = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const link = await new Promise<string | undefined>((resolve) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /^\s+(https?:\/\/\S+)\s*$/m.exec(stdout);
      if (m) resolve(m[1]);
    });
    void ended.then(() => resolve(undefined));
  });
  if (link) {
    let url = link;
    for (let hop = 0; hop < 5; hop++) {
      const answer = await fetch(url, { redirect: 'manual' });
      const next = answer.headers.get('location');
      await answer.text();
      log(`browser: GET ${url.replace(/\?.*/, '?…')} → ${answer.status}`);
      if (!next || answer.status < 300 || answer.status >= 400) break;
      url = new URL(next, url).href;
    }
  }
  const code = await ended;
  log(`toolwright authorize ${SLUG} → exit ${code}\n${stdout}${stderr}`);
  if (code !== 0) throw new Error(`authorize failed (exit ${code})`);
}

/** A command, signed in again when Toolwright says the server needs it. */
async function withSignIn(args: string[]): Promise<ToolwrightRun> {
  for (;;) {
    const run = await tw(args);
    if (run.code === 0 || !needsSignIn(run) || signIns >= MAX_SIGN_INS) return run;
    await signIn();
  }
}

try {
  // A pre-registered client's secret goes in on stdin, as a person's would: never on the command line.
  const credentials = context.client_id ? ['--client-id', context.client_id, ...(context.client_secret ? ['--client-secret'] : [])] : [];
  const added = await tw(
    ['add-server', SLUG, '--url', serverUrl, '--client-metadata-url', CONFORMANCE_CLIENT_METADATA_URL, ...credentials],
    context.client_secret,
  );
  if (added.code !== 0) throw new Error('add-server failed');
  if (needsSignIn(added)) await signIn();
  const synced = await withSignIn(['sync', SLUG]);
  if (synced.code !== 0) throw new Error('sync failed');
  const tool = /^\s+\+ (?:conf\/)?(\S+)/m.exec(added.stdout + synced.stdout)?.[1];
  if (tool) {
    if ((await tw(['enable', `${SLUG}/${tool}`])).code !== 0) throw new Error('enable failed');
    const ran = await withSignIn(['run', `${SLUG}/${tool}`, '--args', '{}']);
    if (ran.code !== 0) throw new Error('run failed');
  }
  process.exitCode = 0;
} catch (e) {
  log(`failed: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
