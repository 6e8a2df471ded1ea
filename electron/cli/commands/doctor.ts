/**
 * `doctor`: the data folder, problems and Docker checked through the operations, and the MCP
 * configuration for agents; with --profile, one profile's checks and its own configuration.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { McpLaunch } from '../../../shared/types.js';
import type { ProfileDetail } from '../../../shared/agents/profiles.js';
import { mcpClientConfig, profileHttpUrl, profileLaunch } from '../../../shared/agents/mcp-config.js';
import { TOKENIZER_BASIS, tokensApprox } from '../../../shared/agents/context-cost.js';
import type { CliContext } from '../context.js';
import type { CliSession } from '../session.js';
import { CliFailure } from '../failure.js';
import { printJson } from '../output.js';
import { allTools } from '../pages.js';

const BIN = resolve(new URL('../../../bin/toolwright.js', import.meta.url).pathname);
/** Where `toolwright serve` listens unless told otherwise (serve.ts). */
const SERVE_ORIGIN = 'http://127.0.0.1:7420';
/** How long doctor waits for the background token count a fresh core starts with. */
const COUNT_WAIT_MS = 15_000;

const ok = (b: boolean) => (b ? 'ok  ' : 'FAIL');
const okOrWarn = (b: boolean) => (b ? 'ok  ' : 'warn');

async function profileChecked(session: CliSession, slug: string): Promise<ProfileDetail> {
  const { items } = await session.call('profiles.list', {});
  const found = items.find((p) => p.slug === slug.normalize('NFC'));
  if (!found) {
    const known = items.map((p) => p.slug).sort();
    const message = known.length
      ? `no profile '${slug}'; known profiles: ${known.join(', ')}`
      : `no profile '${slug}': there are no profiles yet; create one with toolwright profiles add <slug> --bundle <bundle>`;
    throw new CliFailure({ code: 'NOT_FOUND', message });
  }
  // A fresh core counts the tools in the background; the answer waits for it rather than show a part.
  const until = Date.now() + COUNT_WAIT_MS;
  let detail = await session.call('profiles.get', { profileID: found.profileID });
  while (detail.contextTokens.pending > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
    detail = await session.call('profiles.get', { profileID: found.profileID });
  }
  return detail;
}

function profileReport(p: ProfileDetail, launch: McpLaunch, origin: string) {
  const { tools: _tools, ...summary } = p;
  const stdio = mcpClientConfig('claude', { name: p.slug, launch: profileLaunch(launch, p.slug) });
  const http = mcpClientConfig('http', { name: p.slug, launch, httpUrl: profileHttpUrl(origin, p.slug) });
  return { ...summary, mcpConfig: { stdio: JSON.parse(stdio) as unknown, http: JSON.parse(http) as unknown }, stdio, http };
}

function profileLines(r: ReturnType<typeof profileReport>): string[] {
  const missing = [...r.missing.bundles.map((id) => `bundle ${id}`), ...r.missing.tools.map((id) => `tool ${id}`)];
  const { listed, search, pending } = r.contextTokens;
  const inUse = r.mode === 'all' ? 'every tool listed' : 'search mode';
  return [
    '',
    `profile ${r.slug} (${r.mode}): ${r.toolCount} tool(s) at /mcp/p/${r.slug}`,
    `${okOrWarn(missing.length === 0)} ${missing.length} missing reference(s)${missing.map((m) => `\n       ${m} (kept in the profile; remove it or bring it back)`).join('')}`,
    `     context per agent request: every tool listed ${tokensApprox(listed)}${pending ? ` (${pending} tool(s) not counted yet)` : ''}; search mode ${tokensApprox(search)}; this profile uses ${inUse}`,
    `     (${TOKENIZER_BASIS})`,
    `${okOrWarn(r.warnings.length === 0)} tool count${r.warnings.length ? r.warnings.map((w) => `\n       ${w}: switch to search mode or leave tools out`).join('') : ' within every client limit'}`,
    '',
    `MCP configuration of profile ${r.slug}, stdio (Claude Desktop, Cursor; VS Code: under "servers" in .vscode/mcp.json):`,
    r.stdio,
    '',
    `Streamable HTTP (toolwright serve's host; replace <token> with one from \`toolwright profiles token ${r.slug}\`):`,
    r.http,
  ];
}

export function registerDoctorCommand(program: Command, cli: CliContext): void {
  program
    .command('doctor')
    .description('check the data folder, problems and Docker; print the MCP configuration for agents')
    .option('--profile <slug>', 'check one profile (tools, missing references, context cost, client limits) and print its configuration')
    .option('--url <origin>', `where agents reach the host, for the profile's HTTP configuration (default ${SERVE_ORIGIN})`)
    .action(async (o: { profile?: string; url?: string }) => {
      if (o.url !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(o.url)) {
        throw new CliFailure({ code: 'INVALID_INPUT', message: `--url must be an origin such as https://tools.example.com (got '${o.url}')` });
      }
      const session = await cli.session({ docker: true });
      const info = await session.call('system.info', {});
      const profile = o.profile === undefined ? undefined : await profileChecked(session, o.profile);
      const problems = (await session.call('problems.list', {})).items;
      const visible = (await allTools(session, { includeDisabled: false })).length;
      const launch: McpLaunch = { command: 'node', args: [BIN, '--data-dir', info.dataDir, 'mcp'] };
      const mcpConfig = JSON.parse(mcpClientConfig('claude', { name: 'toolwright', launch })) as unknown;
      const origin = o.url ?? (info.agentAccess?.enabled && info.agentAccess.url ? new URL(info.agentAccess.url).origin : SERVE_ORIGIN);
      const report = profile && profileReport(profile, launch, origin);
      if (cli.json()) {
        const { stdio: _s, http: _h, ...profileJson } = report ?? { stdio: '', http: '' };
        return printJson({ system: info, problems, visibleTools: visible, mcpConfig, ...(report ? { profile: profileJson } : {}) });
      }
      process.stdout.write(
        [
          `${ok(true)} data folder ${info.dataDir}`,
          `${ok(problems.length === 0)} ${problems.length} problem(s)${problems.map((p) => `\n       ${p.path}: ${p.reason}`).join('')}`,
          `${ok(info.docker.ok)} Docker ${info.docker.ok ? 'reachable' : `unavailable: ${info.docker.reason ?? ''}`}`,
          `${ok(info.config.toolsEnabled)} tools ${info.config.toolsEnabled ? 'enabled' : 'switched off (kill switch)'}; agents see ${visible} tool(s)`,
          ...(report
            ? profileLines(report)
            : ['', 'MCP configuration (Claude Desktop, Cursor; VS Code: under "servers" in .vscode/mcp.json):', JSON.stringify(mcpConfig, null, 2)]),
          '',
        ].join('\n'),
      );
      if (problems.length > 0) process.exitCode = 1;
    });
}
