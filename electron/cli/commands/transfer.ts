/** `export` and `import`: ZIPs of bundles (streamed), SKILL.md and OpenAPI documents. */
import { Option, type Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { CliContext } from '../context.js';
import { CliFailure } from '../failure.js';
import { printJson, progressBar } from '../output.js';
import { allBundles } from '../pages.js';
import { mcpServerLines } from '../tool-types/upstream.js';

type OnConflict = 'skip' | 'replace' | 'copy';

/** A claude_desktop_config.json, Cursor/Windsurf/VS Code mcp.json or registry server.json (else the JSON is an OpenAPI document). */
function isMcpConfig(bytes: Buffer): boolean {
  try {
    const doc: unknown = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return false;
    const o = doc as Record<string, unknown>;
    const mcp = o['mcp'];
    const nested = typeof mcp === 'object' && mcp !== null && 'servers' in mcp;
    return (
      'mcpServers' in o ||
      ('servers' in o && !('openapi' in o) && !('paths' in o)) ||
      nested ||
      (typeof o['name'] === 'string' && ('packages' in o || 'remotes' in o))
    );
  } catch {
    return false;
  }
}

export function registerTransferCommands(program: Command, cli: CliContext): void {
  program
    .command('export [bundles...]')
    .description('write bundles (all when none are named) to a ZIP')
    .option('-o, --output <file>', 'where to write the ZIP (default: the suggested name in this folder)')
    .action(async (slugs: string[], o: { output?: string }) => {
      const session = await cli.session();
      const ids = slugs.length ? slugs.map((s) => session.bundleID(s)) : (await allBundles(session, { includeDisabled: true })).map((b) => b.bundleID);
      const opened = await session.openExport(ids);
      const file = resolve(o.output ?? opened.fileName);
      const bar = progressBar(`exporting ${basename(file)}`);
      let written = 0;
      opened.stream.on('data', (chunk: Buffer) => bar.update((written += chunk.length), Math.max(opened.totalBytes, written)));
      await pipeline(opened.stream, createWriteStream(file));
      bar.end();
      if (cli.json()) return printJson({ file, entryCount: opened.entryCount, bytes: written });
      process.stdout.write(`wrote ${file} (${opened.entryCount} files)\n`);
    });

  program
    .command('import <file>')
    .description(
      'import a ZIP export, a SKILL.md, an OpenAPI document (.json, .yaml), or the MCP servers of a claude_desktop_config.json, mcp.json (Cursor, Windsurf, VS Code), registry server.json or .mcpb',
    )
    .addOption(new Option('--on-conflict <mode>', 'for ZIPs: what to do with bundles that exist').choices(['skip', 'replace', 'copy']).default('skip'))
    .option('--dry-run', 'say what would happen, write nothing')
    .option('--server-url <url>', 'for OpenAPI: the base URL to call')
    .option('--no-sync', 'for MCP servers: create the bundles without starting the servers to sync their tools')
    .action(async (file: string, o: { onConflict: OnConflict; dryRun?: boolean; serverUrl?: string; sync: boolean }) => {
      const session = await cli.session();
      const bar = progressBar(`reading ${basename(file)}`);
      const bytes = await readFile(resolve(file)).catch((e: NodeJS.ErrnoException) => {
        throw new CliFailure({ code: 'INVALID_INPUT', message: `cannot read ${file}: ${e.code ?? e.message}` });
      });
      bar.update(bytes.length, bytes.length);
      bar.end();
      const ext = extname(file).toLowerCase();
      const dryRun = o.dryRun === true;
      const mcp = ext === '.mcpb' ? 'base64' : ext === '.json' && isMcpConfig(bytes) ? 'utf8' : undefined;
      const report = mcp
        ? await session.call('bundles.importMcpServers', { content: bytes.toString(mcp), encoding: mcp, dryRun, sync: o.sync })
        : ext === '.zip' || bytes.subarray(0, 2).toString('latin1') === 'PK'
          ? await session.call('bundles.import', { zip: new Uint8Array(bytes), onConflict: o.onConflict, dryRun })
          : ext === '.md'
            ? await session.call('bundles.importSkill', { text: bytes.toString('utf8'), dryRun })
            : await session.call('bundles.importOpenApi', { document: bytes.toString('utf8'), dryRun, ...(o.serverUrl ? { serverUrl: o.serverUrl } : {}) });
      if (cli.json()) return printJson(report);
      const lines = [
        report.mcpServers
          ? `${dryRun ? 'would import' : 'imported'} ${report.mcpServers.filter((s) => s.status === 'created').length} MCP server(s) of ${report.mcpServers.length}`
          : `${dryRun ? 'would import' : 'imported'} ${report.toolCount} tool(s)`,
        ...(report.mcpServers ? mcpServerLines(report.mcpServers, dryRun) : report.created.map((b) => `  + ${b.slug}`)),
        ...report.replaced.map((b) => `  ~ ${b.slug}`),
        ...report.skipped.map((b) => `  - ${b.slug}: ${b.reason}`),
        ...(report.hostsToAllow?.length ? [`hosts to allow: ${report.hostsToAllow.join(', ')}`] : []),
        ...(report.warnings ?? []).map((w) => `warning: ${w}`),
      ];
      process.stdout.write(lines.join('\n') + '\n');
    });
}
