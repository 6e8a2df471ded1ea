/**
 * `toolwright`: the command line over the same store as the app (DESIGN.md, "Agents: MCP server
 * and CLI"). Every command opens the data folder itself and goes through the operations
 * contract, so it works beside a running app and answers in the REST shapes with `--json`.
 * commander parses the arguments (a maintained parser with help, usage errors and subcommands).
 *
 * Exit codes: 0 ok, 1 the tool failed, 2 bad usage or input, 3 refused by a gate; a run stopped
 * by Ctrl-C (or SIGTERM) ends with 130 (143), the shell's code for a command interrupted so.
 */
import { Command, CommanderError, Option } from 'commander';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import { randomUUID } from 'node:crypto';
import { constants as osConstants } from 'node:os';
import { createCore, defaultDataDir, type Core } from '../core/app-core.js';
import { stderrLogger } from '../core/log.js';
import type { ErrorCode, ApiError } from '../../shared/errors.js';
import type { OpInput, OpName, OpOutput } from '../../shared/operations.js';
import type { InvokeResult, ToolView } from '../../shared/types.js';
import { valueText } from '../../shared/format.js';
import { resolveToolRef, bundleByRef } from './tool-ref.js';
import { printJson, progressBar, table } from './output.js';
import { StreamPrinter, stopOnSignal } from './run-live.js';

const VERSION = '0.1.0';

const GATE_CODES = new Set<ErrorCode>([
  'TOOLS_DISABLED',
  'TOOL_DISABLED',
  'BUNDLE_DISABLED',
  'BUNDLE_DELETED',
  'CONFIRMATION_REQUIRED',
  'RATE_LIMITED',
  'TOOL_UNAVAILABLE',
  'FORBIDDEN',
  'BUILTIN_READONLY',
  'UNAUTHORIZED',
]);
const INPUT_CODES = new Set<ErrorCode>([
  'INVALID_INPUT',
  'INVALID_ARGS',
  'NOT_FOUND',
  'CONFLICT',
  'MODIFIED_ELSEWHERE',
  'PAYLOAD_TOO_LARGE',
  'HEADERS_TOO_LARGE',
]);

export function exitCodeFor(code: ErrorCode | undefined): number {
  if (code === undefined) return 1;
  if (GATE_CODES.has(code)) return 3;
  if (INPUT_CODES.has(code)) return 2;
  return 1;
}

class CliFailure extends Error {
  constructor(
    readonly error: ApiError,
    readonly exitCode = exitCodeFor(error.code),
  ) {
    super(error.message);
  }
}

interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
}

let openCore: Core | undefined;

async function core(program: Command, opts: { docker?: boolean } = {}): Promise<Core> {
  if (!openCore) {
    const g = program.opts<GlobalOptions>();
    openCore = await createCore({
      dataDir: g.dataDir ? resolve(g.dataDir) : defaultDataDir(),
      transport: 'rest',
      docker: opts.docker ?? false,
      reapIntervalMs: 0,
      logger: stderrLogger(),
    });
  }
  return openCore;
}

async function call<N extends OpName>(c: Core, name: N, input: OpInput<N>): Promise<OpOutput<N>> {
  const env = await c.dispatch(name, input, { transport: 'rest' });
  if (!env.ok) throw new CliFailure(env.error);
  return env.data;
}

async function allTools(c: Core, input: Omit<OpInput<'tools.list'>, 'pageToken'>): Promise<ToolView[]> {
  const items: ToolView[] = [];
  let pageToken: string | undefined;
  do {
    const page = await call(c, 'tools.list', { ...input, pageSize: 500, ...(pageToken ? { pageToken } : {}) });
    items.push(...page.items);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return items;
}

function bundleSlugs(c: Core): Map<string, string> {
  return new Map([...c.store.state.bundles.values()].map((b) => [b.file.bundleID, b.file.slug]));
}

function toolRows(c: Core, tools: ToolView[]): string[][] {
  const slugs = bundleSlugs(c);
  return tools.map((t) => [
    `${slugs.get(t.bundleID) ?? t.bundleID}/${t.slug}@${t.version}`,
    t.type,
    t.safety,
    t.isEnabled ? 'on' : 'off',
    t.availability.ok ? 'available' : `unavailable: ${t.availability.reason ?? ''}`,
    t.displayName,
  ]);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A line typed at the terminal; hidden (no echo) for secrets. */
async function prompt(question: string, hidden = false): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  if (hidden) {
    const out = rl as unknown as { _writeToOutput: (s: string) => void };
    out._writeToOutput = (s: string) => {
      if (s.includes(question)) process.stderr.write(question);
    };
  }
  try {
    return await new Promise<string>((resolveAnswer) => rl.question(question, resolveAnswer));
  } finally {
    if (hidden) process.stderr.write('\n');
    rl.close();
  }
}

function typedArg(value: string, schema: unknown): unknown {
  const type = typeof schema === 'object' && schema !== null ? (schema as { type?: unknown }).type : undefined;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('integer') || types.includes('number')) {
    const n = Number(value);
    if (value.trim() !== '' && Number.isFinite(n)) return n;
  }
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.includes('null') && value === 'null') return null;
  if (types.includes('object') || types.includes('array')) {
    try {
      return JSON.parse(value);
    } catch {
      throw new CliFailure({ code: 'INVALID_ARGS', message: `--arg value '${value.slice(0, 60)}' must be JSON for an ${types.join('/')} argument` });
    }
  }
  return value;
}

/** Arguments from --args JSON, repeated --arg name=value (typed by the argSchema) or stdin. */
export function parseArgs(argSchema: unknown, json: string | undefined, pairs: string[], stdin?: string): Record<string, unknown> {
  let args: Record<string, unknown> = {};
  const text = json ?? (pairs.length === 0 && stdin?.trim() ? stdin : undefined);
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new CliFailure({ code: 'INVALID_ARGS', message: `the arguments are not valid JSON; pass an object such as --args '{"city":"Lyon"}'` });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new CliFailure({ code: 'INVALID_ARGS', message: 'the arguments must be a JSON object' });
    }
    args = parsed as Record<string, unknown>;
  }
  const properties =
    (typeof argSchema === 'object' && argSchema !== null ? (argSchema as { properties?: Record<string, unknown> }).properties : undefined) ?? {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliFailure({ code: 'INVALID_ARGS', message: `--arg '${pair}' must be name=value` });
    const name = pair.slice(0, eq);
    args[name] = typedArg(pair.slice(eq + 1), Object.hasOwn(properties, name) ? properties[name] : undefined);
  }
  return args;
}

export function printResult(result: InvokeResult): void {
  if (result.ok) {
    process.stdout.write(valueText(result.value) + '\n');
  } else {
    process.stderr.write(`toolwright: ${result.error?.code ?? 'ERROR'}: ${result.error?.message ?? 'the tool failed'}\n`);
  }
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function buildProgram(): Command {
  const program = new Command('toolwright')
    .description('Manage and run the tools your LLM agents call, from the same store as the Toolwright app.')
    .version(VERSION)
    .addOption(new Option('--data-dir <dir>', "data folder (default: the app's; or TOOLWRIGHT_DATA_DIR)"))
    .option('--json', "print JSON (the REST API's shapes) instead of tables")
    .showHelpAfterError()
    .exitOverride();
  const json = () => program.opts<GlobalOptions>().json === true;

  program
    .command('serve')
    .description('run the headless host: the app in a browser, the REST API and MCP at /mcp')
    .option('--port <n>', 'port on 127.0.0.1', '7420')
    .action(async (o: { port: string }) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new CliFailure({ code: 'INVALID_INPUT', message: `--port must be 0–65535 (got '${o.port}')` });
      const { startServe } = await import('../host/serve.js');
      const g = program.opts<GlobalOptions>();
      await startServe({ dataDir: g.dataDir ? resolve(g.dataDir) : defaultDataDir(), port });
      await new Promise(() => undefined); // until a signal
    });

  program
    .command('mcp')
    .description('run the MCP server on stdin/stdout (agents start this as a subprocess)')
    .option('--bundles <slugs>', 'only these bundles, comma-separated')
    .action(async (o: { bundles?: string }) => {
      const { runStdioServer } = await import('../host/mcp/stdio.js');
      const g = program.opts<GlobalOptions>();
      await runStdioServer({
        dataDir: g.dataDir ? resolve(g.dataDir) : defaultDataDir(),
        ...(o.bundles
          ? {
              bundles: o.bundles
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : {}),
        version: VERSION,
      });
      await new Promise(() => undefined); // until stdin closes
    });

  program
    .command('ls')
    .description('list tools (or bundles with --bundles)')
    .option('--bundle <slug>', 'only the tools of this bundle')
    .option('--bundles', 'list bundles instead of tools')
    .option('--enabled', 'only the tools agents may use now')
    .action(async (o: { bundle?: string; bundles?: boolean; enabled?: boolean }) => {
      const c = await core(program);
      if (o.bundles) {
        const items = (await call(c, 'bundles.list', { includeDisabled: true, pageSize: 500 })).items;
        if (json()) return printJson(items);
        process.stdout.write(
          table(
            items.map((b) => [b.slug, b.isEnabled ? 'on' : 'off', String(b.toolCount), b.isBuiltIn ? 'built-in' : '', b.displayName]),
            ['BUNDLE', 'ENABLED', 'TOOLS', '', 'NAME'],
          ),
        );
        return;
      }
      const bundleIDs = o.bundle ? [bundleByRef(c.store, o.bundle).file.bundleID] : undefined;
      const items = await allTools(c, { includeDisabled: !o.enabled, ...(bundleIDs ? { bundleIDs } : {}) });
      if (json()) return printJson(items);
      process.stdout.write(table(toolRows(c, items), ['TOOL', 'TYPE', 'SAFETY', 'ENABLED', 'AVAILABILITY', 'NAME']));
    });

  program
    .command('search <query...>')
    .description('fuzzy search over names, descriptions and tags')
    .action(async (words: string[]) => {
      const c = await core(program);
      const page = await call(c, 'tools.search', { q: words.join(' '), includeDisabled: true, pageSize: 50 });
      if (json()) return printJson(page.items);
      process.stdout.write(table(toolRows(c, page.items), ['TOOL', 'TYPE', 'SAFETY', 'ENABLED', 'AVAILABILITY', 'NAME']));
    });

  program
    .command('show <tool>')
    .description('a tool in full: <bundle>/<tool>[@version], or <tool> when unique')
    .action(async (ref: string) => {
      const c = await core(program);
      const rec = resolveToolRef(c.store, ref);
      const tool = await call(c, 'tools.get', { bundleID: rec.file.bundleID, slug: rec.file.slug, version: rec.file.version });
      if (json()) return printJson(tool);
      const slugs = bundleSlugs(c);
      const lines = [
        `${tool.displayName}  (${slugs.get(tool.bundleID)}/${tool.slug}@${tool.version})`,
        tool.description,
        `type ${tool.type}, ${tool.safety}, ${tool.isEnabled ? 'enabled' : 'disabled'}, ${tool.availability.ok ? 'available' : `unavailable: ${tool.availability.reason}`}`,
        `arguments: ${JSON.stringify(tool.argSchema, null, 2)}`,
      ];
      process.stdout.write(lines.filter(Boolean).join('\n') + '\n');
    });

  program
    .command('run <tool>')
    .description('run a tool: arguments as --args JSON, repeated --arg name=value, or JSON on stdin')
    .option('--args <json>', 'the arguments as one JSON object')
    .option('--arg <name=value>', 'one argument, typed by the argSchema (repeatable)', collect, [])
    .option('-y, --yes', 'confirm a privileged tool without asking')
    .option('--stream', 'print the output as it arrives (the default when stdout is a terminal; --json never streams)')
    .option('--no-stream', 'print only the result, at the end')
    .option('--invocation-id <id>', "the run's ID, to cancel it from elsewhere (POST /tools/invocations/{id}/cancel, toolwright cancel)")
    .action(async (ref: string, o: { args?: string; arg: string[]; yes?: boolean; stream?: boolean; invocationId?: string }) => {
      const c = await core(program, { docker: true });
      const rec = resolveToolRef(c.store, ref);
      const stdin = o.args === undefined && o.arg.length === 0 && !process.stdin.isTTY ? await readStdin() : undefined;
      const args = parseArgs(rec.file.argSchema, o.args, o.arg, stdin);
      let confirm = o.yes === true;
      if (c.tools.safetyOf(rec) === 'privileged' && !confirm) {
        if (!process.stdin.isTTY || stdin !== undefined) {
          throw new CliFailure({ code: 'CONFIRMATION_REQUIRED', message: `${ref} is privileged: run it again with --yes to confirm` });
        }
        confirm = /^y(es)?$/i.test((await prompt(`${rec.file.displayName || rec.file.slug} is privileged. Run it? [y/N] `)).trim());
        if (!confirm) throw new CliFailure({ code: 'CONFIRMATION_REQUIRED', message: 'not confirmed; nothing ran' });
      }
      const streaming = !json() && (o.stream ?? process.stdout.isTTY === true);
      const live = streaming ? new StreamPrinter() : undefined;
      const invocationID = o.invocationId ?? randomUUID();
      const stop = stopOnSignal(() => void c.invocations.cancel(invocationID));
      let result: InvokeResult;
      try {
        result = await c.invocations.invoke(
          { bundleID: rec.file.bundleID, slug: rec.file.slug, version: rec.file.version },
          {
            args,
            confirm,
            caller: 'cli',
            invocationID,
            // A signal that came while the call was being admitted stops it as soon as it starts.
            onStart: () => stop.signal && void c.invocations.cancel(invocationID),
            ...(live ? { onEvent: live.onEvent } : {}),
          },
        );
      } catch (e) {
        const { toApiError } = await import('../core/errors.js');
        throw new CliFailure(toApiError(e, { unexpected: 'the call failed' }));
      } finally {
        stop.dispose();
      }
      if (json()) printJson(result);
      else if (live) live.result(result, printResult);
      else printResult(result);
      process.exitCode = stop.signal ? 128 + osConstants.signals[stop.signal] : result.ok ? 0 : exitCodeFor(result.error?.code);
    });

  program
    .command('cancel <invocationID>')
    .description("stop a run in progress, wherever it runs (this CLI elsewhere, the app, the host, an agent's MCP server)")
    .action(async (invocationID: string) => {
      const c = await core(program);
      const { cancelled } = await call(c, 'tools.cancel', { invocationID });
      if (json()) printJson({ cancelled });
      else process.stdout.write(cancelled ? `cancelled ${invocationID}\n` : `no run ${invocationID} is in progress\n`);
      if (!cancelled) process.exitCode = 2;
    });

  for (const [name, isEnabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    program
      .command(`${name} <target>`)
      .description(`switch ${isEnabled ? 'on' : 'off'} a bundle (<bundle>) or a tool (<bundle>/<tool>[@version])`)
      .action(async (target: string) => {
        const c = await core(program);
        const asBundle = !target.includes('/') && !target.includes('@') && [...c.store.state.bundles.values()].some((b) => b.file.slug === target);
        if (asBundle) {
          const b = await call(c, 'bundles.patch', { bundleID: bundleByRef(c.store, target).file.bundleID, patch: { isEnabled } });
          if (json()) return printJson(b);
          process.stdout.write(`bundle ${b.slug} is ${isEnabled ? 'on' : 'off'}\n`);
          return;
        }
        const rec = resolveToolRef(c.store, target);
        const t = await call(c, 'tools.patch', { bundleID: rec.file.bundleID, slug: rec.file.slug, version: rec.file.version, patch: { isEnabled } });
        if (json()) return printJson(t);
        process.stdout.write(`tool ${t.slug}@${t.version} is ${isEnabled ? 'on' : 'off'}\n`);
      });
  }

  program
    .command('export [bundles...]')
    .description('write bundles (all when none are named) to a ZIP')
    .option('-o, --output <file>', 'where to write the ZIP (default: the suggested name in this folder)')
    .action(async (slugs: string[], o: { output?: string }) => {
      const c = await core(program);
      const ids = slugs.length
        ? slugs.map((s) => bundleByRef(c.store, s).file.bundleID)
        : [...c.store.state.bundles.values()].filter((b) => !b.file.softDeletedAt).map((b) => b.file.bundleID);
      const opened = await c.openExport(ids);
      const file = resolve(o.output ?? opened.fileName);
      const bar = progressBar(`exporting ${basename(file)}`);
      let written = 0;
      opened.stream.on('data', (chunk: Buffer) => bar.update((written += chunk.length), Math.max(opened.totalBytes, written)));
      await pipeline(opened.stream, createWriteStream(file));
      bar.end();
      if (json()) return printJson({ file, entryCount: opened.entryCount, bytes: written });
      process.stdout.write(`wrote ${file} (${opened.entryCount} files)\n`);
    });

  program
    .command('import <file>')
    .description('import a ZIP export, a SKILL.md or an OpenAPI document (.json, .yaml)')
    .addOption(new Option('--on-conflict <mode>', 'for ZIPs: what to do with bundles that exist').choices(['skip', 'replace', 'copy']).default('skip'))
    .option('--dry-run', 'say what would happen, write nothing')
    .option('--server-url <url>', 'for OpenAPI: the base URL to call')
    .action(async (file: string, o: { onConflict: 'skip' | 'replace' | 'copy'; dryRun?: boolean; serverUrl?: string }) => {
      const c = await core(program);
      const bar = progressBar(`reading ${basename(file)}`);
      const bytes = await readFile(resolve(file)).catch((e: NodeJS.ErrnoException) => {
        throw new CliFailure({ code: 'INVALID_INPUT', message: `cannot read ${file}: ${e.code ?? e.message}` });
      });
      bar.update(bytes.length, bytes.length);
      bar.end();
      const ext = extname(file).toLowerCase();
      const dryRun = o.dryRun === true;
      const report =
        ext === '.zip' || bytes.subarray(0, 2).toString('latin1') === 'PK'
          ? await call(c, 'bundles.import', { zip: new Uint8Array(bytes), onConflict: o.onConflict, dryRun })
          : ext === '.md'
            ? await call(c, 'bundles.importSkill', { text: bytes.toString('utf8'), dryRun })
            : await call(c, 'bundles.importOpenApi', { document: bytes.toString('utf8'), dryRun, ...(o.serverUrl ? { serverUrl: o.serverUrl } : {}) });
      if (json()) return printJson(report);
      const lines = [
        `${dryRun ? 'would import' : 'imported'} ${report.toolCount} tool(s)`,
        ...report.created.map((b) => `  + ${b.slug}`),
        ...report.replaced.map((b) => `  ~ ${b.slug}`),
        ...report.skipped.map((b) => `  - ${b.slug}: ${b.reason}`),
        ...(report.hostsToAllow?.length ? [`hosts to allow: ${report.hostsToAllow.join(', ')}`] : []),
        ...(report.warnings ?? []).map((w) => `warning: ${w}`),
      ];
      process.stdout.write(lines.join('\n') + '\n');
    });

  const secrets = program.command('secrets').description('app-scoped secrets: ls, set NAME (value from stdin or a hidden prompt), rm NAME');
  secrets
    .command('ls')
    .description('secret names, values masked')
    .action(async () => {
      const c = await core(program);
      const items = (await call(c, 'secrets.list', {})).items;
      if (json()) return printJson(items);
      process.stdout.write(
        table(
          items.map((s) => [s.name, s.masked, s.updatedAt ?? '']),
          ['NAME', 'VALUE', 'UPDATED'],
        ),
      );
    });
  secrets
    .command('set <name>')
    .description('set a secret; the value is read from stdin or a hidden prompt, never from the command line')
    .action(async (name: string) => {
      const c = await core(program);
      const value = process.stdin.isTTY ? await prompt(`value of ${name}: `, true) : (await readStdin()).replace(/\r?\n$/, '');
      if (!value) throw new CliFailure({ code: 'INVALID_INPUT', message: 'the value is empty; type it at the prompt or pipe it in' });
      const info = await call(c, 'secrets.set', { name, value });
      if (json()) return printJson(info);
      process.stdout.write(`secret ${info.name} set\n`);
    });
  secrets
    .command('rm <name>')
    .description('remove a secret')
    .action(async (name: string) => {
      const c = await core(program);
      await call(c, 'secrets.delete', { name });
      if (json()) return printJson({ deleted: true });
      process.stdout.write(`secret ${name} removed\n`);
    });

  program
    .command('doctor')
    .description('check the data folder, problems and Docker; print the MCP configuration for agents')
    .action(async () => {
      const c = await core(program, { docker: true });
      const info = await call(c, 'system.info', {});
      const problems = (await call(c, 'problems.list', {})).items;
      const visible = (await allTools(c, { includeDisabled: false })).length;
      const bin = resolve(new URL('../../bin/toolwright.js', import.meta.url).pathname);
      const mcpConfig = { mcpServers: { toolwright: { command: 'node', args: [bin, '--data-dir', info.dataDir, 'mcp'] } } };
      if (json()) return printJson({ system: info, problems, visibleTools: visible, mcpConfig });
      const ok = (b: boolean) => (b ? 'ok  ' : 'FAIL');
      process.stdout.write(
        [
          `${ok(true)} data folder ${info.dataDir}`,
          `${ok(problems.length === 0)} ${problems.length} problem(s)${problems.map((p) => `\n       ${p.path}: ${p.reason}`).join('')}`,
          `${ok(info.docker.ok)} Docker ${info.docker.ok ? 'reachable' : `unavailable: ${info.docker.reason ?? ''}`}`,
          `${ok(info.config.toolsEnabled)} tools ${info.config.toolsEnabled ? 'enabled' : 'switched off (kill switch)'}; agents see ${visible} tool(s)`,
          '',
          'MCP configuration (Claude Desktop, Cursor; VS Code: under "servers" in .vscode/mcp.json):',
          JSON.stringify(mcpConfig, null, 2),
          '',
        ].join('\n'),
      );
      if (problems.length > 0) process.exitCode = 1;
    });

  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are exits with code 0; usage errors are 2.
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof CliFailure) {
      if (program.opts<GlobalOptions>().json) printJson({ error: e.error });
      else process.stderr.write(`toolwright: ${e.error.code}: ${e.error.message}\n`);
      return e.exitCode;
    }
    const { toApiError } = await import('../core/errors.js');
    const error = toApiError(e, { unexpected: 'unexpected error' });
    if (program.opts<GlobalOptions>().json) printJson({ error });
    else process.stderr.write(`toolwright: ${error.code}: ${error.message}\n`);
    return exitCodeFor(error.code);
  } finally {
    await openCore?.close().catch(() => undefined);
    openCore = undefined;
  }
}
