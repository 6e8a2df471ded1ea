/**
 * The CLI's front door is the operations contract, the one REST and IPC use: a bad input is
 * refused by the contract's rule with the contract's wording, exactly as REST answers it, and
 * what a CLI run records (its caller) survives the trip through the dispatcher.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type TestHost } from '../../helpers/host.js';
import { runToolwright } from '../../helpers/procs.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const CALC = `/tools/bundles/${CORE}/tools/calc/version/v1`;

let h: TestHost;

const tw = (args: string[]) => runToolwright(h.dataDir, args);

beforeAll(async () => {
  h = await startHost();
});
afterAll(async () => {
  await h?.close();
});

// Each call is a fresh process of the compiled CLI (procs.ts: toolwrightArgs).
describe('toolwright CLI through the operations contract', () => {
  it('refuses an input the contract forbids with the same error REST answers', async () => {
    const badID = 'not/a-valid-id';
    const rest = await h.api('POST', `${CALC}/invoke`, { args: { expression: '6*7' }, invocationID: badID });
    expect(rest.status).toBe(400);
    const cli = await tw(['--json', 'run', 'core/calc', '--arg', 'expression=6*7', '--invocation-id', badID]);
    expect(cli.code).toBe(2);
    expect(JSON.parse(cli.stdout)).toEqual(rest.body);
    const human = await tw(['run', 'core/calc', '--arg', 'expression=6*7', '--invocation-id', badID]);
    expect(human.code).toBe(2);
    expect(human.stderr).toBe(`toolwright: INVALID_INPUT: ${(rest.body as { error: { message: string } }).error.message}\n`);
  }, 180_000);

  it('records a CLI run with caller cli, as before', async () => {
    const ran = await tw(['--json', 'run', 'core/calc', '--arg', 'expression=2+3', '--invocation-id', 'cli-caller-check']);
    expect(ran.code).toBe(0);
    const history = await h.api('GET', `${CALC}/history`);
    expect(history.body.items).toContainEqual(expect.objectContaining({ invocationID: 'cli-caller-check', caller: 'cli' }));
  }, 120_000);

  it('prints its help for the word help (npx on npm 11 swallows --help)', async () => {
    const help = await tw(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: toolwright \[options\] \[command\]/);
    expect(help.stdout).toContain('run [options] <tool>');
  }, 90_000);
});
