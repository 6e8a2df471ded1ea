/**
 * `.mcpb` bundles (github.com/modelcontextprotocol/mcpb): a ZIP with a manifest.json whose
 * `server` says how to start it (`mcp_config` {command, args, env}, or a node/python/binary
 * `entry_point`) and whose `user_config` lists what the person fills in (`sensitive` fields are
 * secrets). The archive goes through the import's safe reader (no links, no `..`, no zip bombs)
 * and is unpacked, all or nothing, to `<data>/mcp-packages/<bundleID>/`, which `${__dirname}`
 * then names.
 */
import { mkdir, rename, rm, writeFile, chmod } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { CoreError } from '../../../errors.js';
import type { TransferLimits } from '../../../archive/limits.js';
import { indexArchive, readEntryBytes, type ArchiveIndex } from '../../../archive/zip-read.js';
import type { Place } from '../../../archive/layout.js';
import { eachServer, ServerRefused, stdioSource, stringList, stringMap, type ReadServers, type SlugAllocator } from './drafts.js';
import { isPlainObject } from '../../../../../shared/plain-object.js';

const MANIFEST = 'manifest.json';

/** Every entry is a file of the package (the layout check is the bundle archive's; .mcpb has its own). */
function packagePlace(name: string, isDirectory: boolean): Place {
  if (name.startsWith('__MACOSX/') || name === '.DS_Store' || name.endsWith('/.DS_Store')) return { kind: 'junk' };
  if (isDirectory) return { kind: 'dir' };
  return { kind: 'file', bundleID: 'package', toolID: 'package', rel: name, depth: name.split('/').length - 1 };
}

export interface OpenedMcpb {
  index: ArchiveIndex;
  manifest: Record<string, unknown>;
}

export async function openMcpb(data: Uint8Array, limits: TransferLimits): Promise<OpenedMcpb> {
  // A package is one folder: its caps are the archive's, not one tool folder's.
  const index = await indexArchive(data, { ...limits, maxToolFolderBytes: limits.maxTotalBytes, maxToolFolderEntries: limits.maxEntries }, packagePlace);
  try {
    const entry = index.entries.find((e) => e.name === MANIFEST);
    if (!entry) throw new CoreError('INVALID_INPUT', 'The .mcpb archive has no manifest.json at its top; it is not an MCP bundle');
    const text = (await readEntryBytes(index, entry, limits.maxJsonBytes)).toString('utf8');
    let manifest: unknown;
    try {
      manifest = JSON.parse(text);
    } catch (e) {
      throw new CoreError('INVALID_INPUT', `The .mcpb's manifest.json is not JSON: ${(e as Error).message}`);
    }
    if (!isPlainObject(manifest)) throw new CoreError('INVALID_INPUT', "The .mcpb's manifest.json must be an object");
    return { index, manifest };
  } catch (e) {
    index.zip.close();
    throw e;
  }
}

const ENTRY_COMMAND: Record<string, string> = { node: 'node', python: 'python3' };

/** The manifest as one server whose files will be at `folder`. */
/**
 * The manifest's own variable for the package folder, spelled apart: the desktop build's ESM shim
 * (electron-vite) adds CommonJS globals to a bundle whose text names that variable, and put its
 * lines in the middle of a string.
 */
const DIRNAME = ['__', 'dirname'].join('');
const FOLDER_VAR = `\${${DIRNAME}}`;

export function readMcpbManifest(manifest: Record<string, unknown>, folder: string, allocate: SlugAllocator): ReadServers {
  const name = typeof manifest['name'] === 'string' ? manifest['name'] : '';
  const read = eachServer([[name, manifest]], allocate, (_name, m, names) => {
    const server = m['server'];
    if (!isPlainObject(server)) throw new ServerRefused('its manifest has no "server" object saying how to start it');
    const type = typeof server['type'] === 'string' ? server['type'] : '';
    const entryPoint = typeof server['entry_point'] === 'string' ? server['entry_point'] : undefined;
    const userConfig = isPlainObject(m['user_config']) ? m['user_config'] : {};
    const home = homedir();
    const builtins: Record<string, string> = {
      [DIRNAME]: folder,
      HOME: home,
      DESKTOP: join(home, 'Desktop'),
      DOCUMENTS: join(home, 'Documents'),
      DOWNLOADS: join(home, 'Downloads'),
      pathSeparator: sep,
      '/': sep,
    };
    const vars = (inner: string): string | undefined => {
      if (inner in builtins) return builtins[inner];
      const key = /^user_config\.(.+)$/.exec(inner)?.[1];
      if (key === undefined) return undefined;
      const spec = userConfig[key];
      if (!isPlainObject(spec)) throw new ServerRefused(`refers to \${user_config.${key}}, which its manifest's user_config does not define`);
      const description = typeof spec['description'] === 'string' ? spec['description'] : typeof spec['title'] === 'string' ? spec['title'] : undefined;
      const fallback = spec['default'];
      if (spec['sensitive'] !== true && (typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean')) {
        return String(fallback).replace(/\$\{([^}]*)\}/g, (all, b: string) => builtins[b] ?? all);
      }
      return names.needed(key, description);
    };
    const config = isPlainObject(server['mcp_config']) ? server['mcp_config'] : undefined;
    let command: string;
    let args: string[];
    if (config && typeof config['command'] === 'string') {
      command = config['command'];
      args = stringList(config['args'], 'server.mcp_config.args');
    } else if (entryPoint && (type === 'node' || type === 'python')) {
      command = ENTRY_COMMAND[type]!;
      args = [`${FOLDER_VAR}/${entryPoint}`];
    } else if (entryPoint && type === 'binary') {
      command = `${FOLDER_VAR}/${entryPoint}`;
      args = [];
    } else {
      throw new ServerRefused(`its server (type '${type}') has neither mcp_config.command nor an entry_point to start`);
    }
    const env = stringMap(config?.['env'], 'server.mcp_config.env');
    const displayName = typeof m['display_name'] === 'string' ? m['display_name'] : name;
    const description = typeof m['description'] === 'string' ? m['description'] : '';
    return { displayName, description, source: stdioSource(command, args, env, names, vars), warnings: [] };
  });
  return { format: 'mcpb', ...read };
}

/** Writes every file of the package to `folder`, through a temporary sibling renamed at the end (nothing half-written). */
export async function unpackMcpb(opened: OpenedMcpb, folder: string, limits: TransferLimits): Promise<void> {
  const temp = `${folder}.partial`;
  await rm(temp, { recursive: true, force: true });
  try {
    for (const entry of opened.index.entries) {
      const target = join(temp, ...entry.name.split('/'));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, await readEntryBytes(opened.index, entry, limits.maxFileBytes), { flag: 'wx' });
      if (entry.executable) await chmod(target, 0o755);
    }
    await mkdir(dirname(folder), { recursive: true });
    await rename(temp, folder);
  } catch (e) {
    await rm(temp, { recursive: true, force: true });
    throw e;
  }
}
