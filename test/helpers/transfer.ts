/**
 * Test helpers for the transfer tests: a raw ZIP writer that can say anything (absolute names,
 * lying sizes, symlink modes, overlapping entries — things yazl rightly refuses to write), and
 * a store with a TransferService on a fresh data directory.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { canonicalJson } from '../../shared/canonical.js';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER, type BundleFile, type ToolFile } from '../../shared/schemas.js';
import { TransferService, type TransferOptions } from '../../electron/core/transfer/transfer-service.js';
import { echoToolFile, FIXTURE_AT, openTestStore, type TestStore } from './store.js';

export interface RawEntry {
  name: string | Buffer;
  data?: Buffer;
  /** 0 stored, 8 deflate (default), or anything else to test refusals. */
  method?: number;
  flags?: number;
  /** Unix mode (type and permission bits), written into the high 16 bits of the external attributes. */
  mode?: number;
  externalAttr?: number;
  madeBy?: number;
  /** Lie about the uncompressed size (central directory and local header). */
  declaredSize?: number;
  /** Point the central directory entry at the local header of an earlier entry. */
  sameDataAs?: number;
}

/** Writes a ZIP byte by byte. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  entries.forEach((e, i) => {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : e.name;
    const data = e.data ?? Buffer.alloc(0);
    const method = e.method ?? 8;
    const body = method === 8 ? deflateRawSync(data) : data;
    const crc = crc32(data);
    const size = e.declaredSize ?? data.length;
    const flags = e.flags ?? (typeof e.name === 'string' ? 0x800 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x2821, 12); // 2000-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const headerOffset = e.sameDataAs !== undefined ? offsets[e.sameDataAs]! : offset;
    offsets.push(offset);
    if (e.sameDataAs === undefined) {
      locals.push(local, name, body);
      offset += local.length + name.length + body.length;
    } else {
      offsets[i] = headerOffset;
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.madeBy ?? (3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x2821, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    central.writeUInt32LE(e.externalAttr ?? ((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(headerOffset, 42);
    centrals.push(central, name);
  });
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export function bundleJson(bundleID: string, overrides: Partial<BundleFile> = {}): Buffer {
  const file: BundleFile = {
    schemaVersion: '1',
    bundleID,
    slug: 'imported',
    displayName: 'Imported',
    description: '',
    isEnabled: true,
    isBuiltIn: false,
    createdAt: FIXTURE_AT,
    modifiedAt: FIXTURE_AT,
    ...overrides,
  };
  return Buffer.from(canonicalJson(file as unknown as Record<string, unknown>, BUNDLE_KEY_ORDER));
}

export function toolJson(bundleID: string, toolID: string, overrides: Partial<ToolFile> = {}): Buffer {
  return Buffer.from(canonicalJson(echoToolFile(bundleID, toolID, overrides) as unknown as Record<string, unknown>, TOOL_KEY_ORDER));
}

/** A valid one-bundle, one-tool archive's entries, to which a test adds its hostile entry. */
export function validEntries(bundleID = uuidv7(), toolID = uuidv7()): { entries: RawEntry[]; bundleID: string; toolID: string; toolDir: string } {
  return {
    bundleID,
    toolID,
    toolDir: `bundles/${bundleID}/tools/${toolID}/`,
    entries: [
      { name: `bundles/${bundleID}/bundle.json`, data: bundleJson(bundleID) },
      { name: `bundles/${bundleID}/tools/${toolID}/tool.json`, data: toolJson(bundleID, toolID) },
    ],
  };
}

export interface TransferStore extends TestStore {
  transfer: TransferService;
}

export interface TransferStoreOptions {
  dataDir?: string;
  builtinDir?: string;
  transfer?: TransferOptions;
}

export async function openTransferStore(opts: TransferStoreOptions = {}): Promise<TransferStore> {
  const t = await openTestStore(opts);
  const transfer = new TransferService({ store: t.store, bundles: t.bundles, tools: t.tools, config: t.config, paths: t.store.paths }, opts.transfer);
  await transfer.recover();
  return { ...t, transfer };
}

/**
 * Opens fresh stores for one test file and removes them all when its afterAll runs. The hook is
 * passed in because this module must not import vitest: transfer-worker.ts runs it outside vitest.
 */
export function freshTransferStores(afterAll: (cleanup: () => Promise<void>) => void): (opts?: TransferStoreOptions) => Promise<TransferStore> {
  const open: TransferStore[] = [];
  afterAll(async () => {
    for (const t of open) await t.cleanup();
  });
  return async (opts = {}) => {
    const t = await openTransferStore(opts);
    open.push(t);
    return t;
  };
}

/**
 * Every path under dir (relative, sorted), to prove a refused import wrote nothing. The audit log
 * is left out: earlier changes reach it in batches at any time (as metrics and history do), and
 * its lock folder comes and goes with each flush.
 */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    let names;
    try {
      names = await readdir(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      if (!rel && d.name === 'audit') continue;
      const p = rel ? `${rel}/${d.name}` : d.name;
      out.push(d.isDirectory() ? `${p}/` : p);
      if (d.isDirectory()) await walk(p);
    }
  };
  await walk('');
  return out.sort();
}
