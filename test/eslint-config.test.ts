/**
 * The transport layering, as ESLint keeps it (eslint.config.js, `import-x/no-restricted-paths`): a file of
 * electron/host imports of electron/core only the dispatcher's door (operations/transport.ts,
 * operations/dispatch.ts, errors.ts, log.ts); the host's two entry points may also import the composition
 * root. The same rule as test/architecture.test.ts's door check, so an editor flags an offender as it is
 * written. These tests lint probes through ESLint's Node API and show the rule bites and spares.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RULE = 'import-x/no-restricted-paths';
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === RULE });

async function restrictedPaths(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, path) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/** Imports written as a file at `electron/host/rest/probe.ts` would write them. */
const SERVICE_IMPORTS = `
import { type Core } from '../../core/app-core.js';
import { createScheduler } from '../../core/schedules/scheduler.js';
import type { GuardFinding } from '../../core/guard/tool-guard.js';
export { listTasks } from '../../core/agent-surface/tasks.js';
export type Probe = [Core, typeof createScheduler, GuardFinding];
`;
const DOOR_IMPORTS = `
import { type TransportCore } from '../../core/operations/transport.js';
import { dispatch } from '../../core/operations/dispatch.js';
import { CoreError } from '../../core/errors.js';
import { silentLogger } from '../../core/log.js';
export type Probe = [TransportCore, typeof dispatch, CoreError, typeof silentLogger];
`;

describe('ESLint: a transport reaches the core only through the dispatcher', () => {
  it('refuses every import of a core module beside the door in electron/host, type-only and re-exports too', async () => {
    const messages = await restrictedPaths('electron/host/rest/probe.ts', SERVICE_IMPORTS);
    expect(messages).toHaveLength(4);
    for (const m of messages) expect(m).toMatch(/^import-x\/no-restricted-paths: .*reaches the core only through the dispatcher/);
    expect(messages.join('\n')).toContain('../../core/agent-surface/tasks.js');
    // Deeper in the host, the same.
    const deep = SERVICE_IMPORTS.replaceAll('../../core/', '../../../core/');
    expect(await restrictedPaths('electron/host/mcp/server/probe.ts', deep)).toHaveLength(4);
  }, 60_000);

  it("lets the host import the dispatcher's door", async () => {
    expect(await restrictedPaths('electron/host/rest/probe.ts', DOOR_IMPORTS)).toEqual([]);
  }, 60_000);

  it("lets the host's entry points import the composition root, and nothing else beside the door", async () => {
    const shallow = SERVICE_IMPORTS.replaceAll('../../core/', '../core/');
    const fromServe = await restrictedPaths('electron/host/serve.ts', shallow);
    expect(fromServe).toHaveLength(2);
    expect(fromServe.join('\n')).toMatch(/guard\/tool-guard\.js[\s\S]*agent-surface\/tasks\.js/);
    expect(fromServe[0]).toMatch(/composition root/);
    const fromStdio = await restrictedPaths('electron/host/mcp/entry/stdio.ts', SERVICE_IMPORTS.replaceAll('../../core/', '../../../core/'));
    expect(fromStdio).toHaveLength(2);
    // Any other file of the host is not an entry point.
    expect(await restrictedPaths('electron/host/http-host.ts', shallow)).toHaveLength(4);
  }, 60_000);

  it('leaves the rest of the layering in place (the core still may not import a transport)', async () => {
    const messages = await restrictedPaths('electron/core/guard/probe.ts', `export { x } from '../../host/serve.js';\n`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/must not reach into transports/);
  }, 60_000);
});
