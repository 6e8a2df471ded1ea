/**
 * public/first-requests.js: the first screen's GETs, sent before the app's code has loaded. Run
 * in a sandbox of its own (node:vm) with a stub fetch; its URLs must be the ones the app's
 * first-screen queries build (shared/rest.ts), or the client would not take the answers and ask
 * again (test/e2e/first-screen.test.ts counts the requests in Chromium).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildRestRequest } from '../../shared/rest.js';
import { FIRST_TOOL_PAGE_SIZE } from '../../renderer/src/api/queries.js';

const SCRIPT = readFileSync(join(fileURLToPath(new URL('../..', import.meta.url)), 'renderer/public/first-requests.js'), 'utf8');

function run(opts: { hash: string; stored?: string; bridge?: boolean }) {
  const sent: { url: string; auth: string | undefined }[] = [];
  const stored = new Map<string, string>(opts.stored ? [['toolwright.token', opts.stored]] : []);
  const replaced: string[] = [];
  const location = { hash: opts.hash, pathname: '/', search: '' };
  const history = { replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) };
  const window: Record<string, unknown> = { location, history, ...(opts.bridge ? { toolwright: {} } : {}) };
  const timers: (() => void)[] = [];
  runInNewContext(SCRIPT, {
    window,
    setTimeout: (fn: () => void) => timers.push(fn),
    sessionStorage: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => stored.set(k, v) },
    fetch: (url: string, init: { headers: Record<string, string> }) => {
      sent.push({ url, auth: init.headers['Authorization'] });
      return Promise.resolve({});
    },
  });
  for (const fn of timers) fn();
  return { sent, stored, replaced, kept: window['__twFirstRequests'] as Record<string, { token: string }> | undefined, linkToken: window['__twLinkToken'] };
}

const FRAME = [
  buildRestRequest('bundles.list', { includeDisabled: true, deleted: 'exclude', pageSize: 1000 }).url,
  buildRestRequest('problems.list', {}).url,
  buildRestRequest('config.get', {}).url,
];
const FIRST_PAGE = buildRestRequest('tools.list', { includeDisabled: true, recommendedPageSize: FIRST_TOOL_PAGE_SIZE }).url;

describe('first-requests.js', () => {
  it("asks, with the link's token, for what the tool list's first screen shows, by the URLs the app's queries build", () => {
    const { sent, kept } = run({ hash: '#token=t%2Bk' });
    expect(sent.map((s) => s.url)).toEqual([...FRAME, FIRST_PAGE]);
    expect(new Set(sent.map((s) => s.auth))).toEqual(new Set(['Bearer t+k']));
    expect(Object.keys(kept!)).toEqual([...FRAME, FIRST_PAGE]);
    expect(kept![FIRST_PAGE]!.token).toBe('t+k');
  });

  it("hands the link's token to the app and takes it out of the address, without touching sessionStorage", () => {
    const { stored, replaced, linkToken } = run({ hash: '#token=t%2Bk' });
    expect(linkToken).toBe('t+k');
    // The tab's first sessionStorage access is a synchronous round trip: the app writes it once the first screen has settled.
    expect(stored.size).toBe(0);
    expect(replaced).toEqual(['/#/tools']);
    // A token the tab already kept leaves the address (which has none) alone.
    expect(run({ hash: '#/', stored: 'kept' }).replaced).toEqual([]);
  });

  it('on another screen asks only for the frame, with the token the tab kept', () => {
    const { sent } = run({ hash: '#/bundle/0190a0a0-0000-7000-8000-000000000000', stored: 'kept' });
    expect(sent.map((s) => s.url)).toEqual(FRAME);
    expect(sent[0]!.auth).toBe('Bearer kept');
    expect(run({ hash: '#/', stored: 'kept' }).sent.map((s) => s.url)).toEqual([...FRAME, FIRST_PAGE]);
  });

  it('sends nothing without a token or over the desktop bridge', () => {
    expect(run({ hash: '' }).sent).toEqual([]);
    expect(run({ hash: '#token=x', bridge: true }).sent).toEqual([]);
  });
});
