/** `doctor`: the data folder, problems and Docker checked through the operations, and the MCP configuration for agents. */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { printJson } from '../output.js';
import { allTools } from '../pages.js';

const BIN = resolve(new URL('../../../bin/toolwright.js', import.meta.url).pathname);

export function registerDoctorCommand(program: Command, cli: CliContext): void {
  program
    .command('doctor')
    .description('check the data folder, problems and Docker; print the MCP configuration for agents')
    .action(async () => {
      const session = await cli.session({ docker: true });
      const info = await session.call('system.info', {});
      const problems = (await session.call('problems.list', {})).items;
      const visible = (await allTools(session, { includeDisabled: false })).length;
      const mcpConfig = { mcpServers: { toolwright: { command: 'node', args: [BIN, '--data-dir', info.dataDir, 'mcp'] } } };
      if (cli.json()) return printJson({ system: info, problems, visibleTools: visible, mcpConfig });
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
}
