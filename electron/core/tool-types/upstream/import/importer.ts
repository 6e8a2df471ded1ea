/**
 * Bringing in the MCP servers people already run (docs/contracts.md, "Upstream MCP servers"): a client's
 * configuration (Claude Desktop, Cursor, Windsurf, VS Code), a registry server.json or an .mcpb
 * package becomes one bundle per server whose `source` starts it. Secret values go to the
 * secrets store and the source names them as `${NAME}`; nothing secret reaches a file. The
 * whole file is read and every server checked before anything is written; then each server's
 * bundle is created and, when it can start (no secret still to set), synced — a server that
 * fails to sync is reported, never undoes the import.
 */
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { BundleSource } from '../../../../../shared/upstream.js';
import type { ImportReport, McpServerImportItem } from '../../../../../shared/types.js';
import { formatBytes } from '../../../../../shared/format.js';
import { CoreError } from '../../../errors.js';
import type { Store } from '../../../store/store.js';
import type { BundleService } from '../../../store/bundles.js';
import type { SecretsStore } from '../../../secrets/secrets-store.js';
import type { UpstreamService } from '../service.js';
import { UPSTREAM_TOOL_VERSION } from '../sync.js';
import type { DataPaths } from '../../../data-paths.js';
import type { TransferLimits } from '../../../archive/limits.js';
import { uniqueName } from '../../../util/names.js';
import { MAX_SERVERS, type ReadServers, type ServerDraft, type SlugAllocator } from './drafts.js';
import { readMcpServers, readVsCode } from './client-configs.js';
import { isRegistryServer, readRegistryServer } from './registry-server.js';
import type { OpenedMcpb } from './mcpb.js';
import { isPlainObject } from '../../../../../shared/plain-object.js';

export interface UpstreamImportInput {
  /** The file's text (JSON) or, with encoding base64, its bytes (an .mcpb). */
  content: string;
  encoding?: 'utf8' | 'base64';
  dryRun?: boolean;
  /** Sync each created server that can start (default true). */
  sync?: boolean;
}

export interface UpstreamImportDeps {
  store: Store;
  /** Built after the runners: asked when an import runs. */
  bundles: () => BundleService;
  secrets: SecretsStore;
  servers: Pick<UpstreamService, 'sync'>;
  paths: DataPaths;
  limits: TransferLimits;
  /** Bundles this import is creating: the import syncs them itself (or not: `sync: false`), not the creation hook. */
  creating: Set<string>;
}

const FORMATS_HINT =
  'expected a claude_desktop_config.json / Cursor or Windsurf mcp.json ({"mcpServers": {…}}), a VS Code mcp.json ({"servers": {…}}), an MCP registry server.json ({"name", "packages" or "remotes"}) or an .mcpb package';

export function packageFolder(paths: DataPaths, bundleID: string): string {
  return join(paths.dataDir, 'mcp-packages', bundleID);
}

function readJsonConfig(bytes: Buffer, allocate: SlugAllocator): ReadServers {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new CoreError('INVALID_INPUT', `The file is not JSON (${(e as Error).message}); ${FORMATS_HINT}`);
  }
  if (!isPlainObject(doc)) throw new CoreError('INVALID_INPUT', `The file is JSON but not an object; ${FORMATS_HINT}`);
  const servers = doc['mcpServers'] ?? doc['servers'] ?? (isPlainObject(doc['mcp']) ? doc['mcp']['servers'] : undefined);
  if (servers !== undefined && !isPlainObject(servers)) {
    throw new CoreError(
      'INVALID_INPUT',
      `"${doc['mcpServers'] !== undefined ? 'mcpServers' : 'servers'}" must be an object of server names to servers, not ${Array.isArray(servers) ? 'a list' : typeof servers}`,
    );
  }
  if (isPlainObject(servers) && Object.keys(servers).length > MAX_SERVERS) {
    throw new CoreError('PAYLOAD_TOO_LARGE', `The file names ${Object.keys(servers).length} servers; at most ${MAX_SERVERS} can be imported at once`);
  }
  if (doc['mcpServers'] !== undefined) return readMcpServers(doc, allocate);
  if (servers !== undefined) return readVsCode(doc, allocate);
  if (isRegistryServer(doc)) return readRegistryServer(doc, allocate);
  throw new CoreError('INVALID_INPUT', `The file has no MCP servers: ${FORMATS_HINT}`);
}

export class UpstreamImport {
  constructor(private readonly deps: UpstreamImportDeps) {}

  async import(input: UpstreamImportInput): Promise<ImportReport> {
    const bytes = Buffer.from(input.content, input.encoding === 'base64' ? 'base64' : 'utf8');
    const isZip = bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const cap = isZip ? this.deps.limits.maxArchiveBytes : this.deps.limits.maxJsonBytes;
    if (bytes.length > cap)
      throw new CoreError(
        'PAYLOAD_TOO_LARGE',
        `The file is ${formatBytes(bytes.length)}; an MCP ${isZip ? 'package' : 'configuration'} may be at most ${formatBytes(cap)}`,
      );

    const taken = new Set([...this.deps.store.reader.bundles()].map((b) => b.file.slug));
    const allocate: SlugAllocator = (base) => uniqueName(base, taken);
    let mcpb: (OpenedMcpb & { bundleID: string }) | undefined;
    let read: ReadServers;
    if (isZip) {
      // The ZIP reader loads with the first package, not with every core.
      const { openMcpb, readMcpbManifest } = await import('./mcpb.js');
      const opened = await openMcpb(bytes, this.deps.limits);
      mcpb = { ...opened, bundleID: uuidv7() };
      read = readMcpbManifest(opened.manifest, packageFolder(this.deps.paths, mcpb.bundleID), allocate);
    } else {
      read = readJsonConfig(bytes, allocate);
    }
    try {
      return await this.apply(read, input, mcpb);
    } finally {
      mcpb?.index.zip.close();
    }
  }

  private async apply(read: ReadServers, input: UpstreamImportInput, mcpb: (OpenedMcpb & { bundleID: string }) | undefined): Promise<ImportReport> {
    const items: McpServerImportItem[] = read.skipped.map((s) => ({ name: s.name, status: 'skipped', reason: s.reason }));
    const ready: ServerDraft[] = [];
    const { Value } = await import('@sinclair/typebox/value');
    for (const draft of read.servers) {
      const problem = [...Value.Errors(BundleSource, draft.source)][0];
      if (problem)
        items.push({
          name: draft.name,
          status: 'skipped',
          reason: `its ${draft.source.transport} settings break a rule: ${problem.path || '/'} ${problem.message}`,
        });
      else ready.push(draft);
    }
    const warnings = ready.flatMap((d) => d.warnings.map((w) => `${d.name}: ${w}`));
    const report: ImportReport = { created: [], replaced: [], skipped: [], toolCount: 0, mcpFormat: read.format, mcpServers: items, warnings };
    if (input.dryRun) report.dryRun = true;

    for (const draft of ready) {
      const stored = draft.secrets.filter((s) => s.value !== undefined && !this.deps.secrets.has(s.name)).map((s) => s.name);
      const kept = draft.secrets.filter((s) => s.value !== undefined && this.deps.secrets.has(s.name)).map((s) => s.name);
      const needed = draft.secrets.filter((s) => s.value === undefined && !this.deps.secrets.has(s.name));
      const item: McpServerImportItem = {
        name: draft.name,
        status: 'created',
        slug: draft.slug,
        transport: draft.source.transport,
        secretsStored: stored,
        secretsNeeded: needed.map((s) => ({ name: s.name, ...(s.description ? { description: s.description } : {}) })),
      };
      if (kept.length) report.warnings!.push(`${draft.name}: kept the secret${kept.length > 1 ? 's' : ''} already set as ${kept.join(', ')} (not overwritten)`);
      items.push(item);
      if (input.dryRun) continue;

      const bundleID = mcpb?.bundleID ?? uuidv7();
      for (const s of draft.secrets) if (s.value !== undefined && stored.includes(s.name)) await this.deps.secrets.set(s.name, s.value);
      if (mcpb) await (await import('./mcpb.js')).unpackMcpb(mcpb, packageFolder(this.deps.paths, bundleID), this.deps.limits);
      this.deps.creating.add(bundleID);
      const { bundle } = await this.deps
        .bundles()
        .put(bundleID, {
          slug: draft.slug,
          displayName: draft.displayName.slice(0, 200),
          description: draft.description.slice(0, 10000),
          source: draft.source,
        })
        .finally(() => this.deps.creating.delete(bundleID));
      item.bundleID = bundle.bundleID;
      report.created.push({ bundleID: bundle.bundleID, slug: bundle.slug });
    }

    if (!input.dryRun && input.sync !== false) {
      for (const item of items) {
        if (item.status !== 'created' || !item.bundleID) continue;
        if (item.secretsNeeded?.length) {
          item.sync = { status: 'not-run', error: `set ${item.secretsNeeded.map((s) => s.name).join(', ')} first, then sync` };
          continue;
        }
        try {
          const synced = await this.deps.servers.sync(item.bundleID, false);
          item.sync = { status: 'synced', tools: synced.added.map((a) => a.slug) };
          report.toolCount += synced.added.length;
          for (const a of synced.added) {
            if (a.guard?.worst) {
              (report.guard ??= []).push({
                bundleSlug: item.slug ?? item.name,
                slug: a.slug,
                version: UPSTREAM_TOOL_VERSION,
                origin: `${item.name}: ${a.name}`,
                worst: a.guard.worst,
                findings: a.guard.findings,
              });
            }
          }
        } catch (e) {
          item.sync = { status: 'failed', error: e instanceof Error ? e.message : String(e) };
        }
      }
    }
    return report;
  }
}
