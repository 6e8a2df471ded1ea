/**
 * Hostile archives, each built inside the test with a raw ZIP writer: every one is refused with
 * a clear reason naming the entry, and nothing is written to the data folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { v7 as uuidv7 } from 'uuid';
import { DEFAULT_LIMITS } from '../../../../electron/core/transfer/transfer-service.js';
import { bundleJson, listTree, openTransferStore, rawZip, toolJson, validEntries, type RawEntry, type TransferStore } from '../../../helpers/transfer.js';

let t: TransferStore;
let before: string[];
let existingBundle: string;

beforeAll(async () => {
  t = await openTransferStore();
  existingBundle = uuidv7();
  await t.bundles.put(existingBundle, { slug: 'keep-me' });
  before = await listTree(t.dataDir);
});
afterAll(async () => {
  await t.cleanup();
});

async function refused(zip: Buffer, code: string, ...phrases: (string | RegExp)[]): Promise<string> {
  let error: (Error & { code?: string }) | undefined;
  try {
    await t.transfer.importZip(zip, 'replace');
  } catch (e) {
    error = e as Error & { code?: string };
  }
  expect(error, 'the import should have been refused').toBeDefined();
  expect(error!.code, error!.message).toBe(code);
  for (const p of phrases) expect(error!.message).toMatch(p);
  // Nothing written: the tree is as it was, and no stage is left behind.
  expect(await listTree(t.dataDir)).toEqual(before);
  expect(t.store.state.bundles.size).toBe(1);
  return error!.message;
}

/** A valid archive plus one extra entry inside its tool folder (or at `name` when given). */
function withFile(rel: string, extra: Omit<RawEntry, 'name'> & { name?: RawEntry['name'] }): { zip: Buffer; name: string } {
  const v = validEntries();
  const name = `${v.toolDir}${rel}`;
  return { zip: rawZip([...v.entries, { name, ...extra }]), name };
}

function withEntry(extra: RawEntry): Buffer {
  const v = validEntries();
  return rawZip([...v.entries, extra]);
}

describe('hostile archives are refused, naming the entry, and nothing is written', () => {
  it('refuses an absolute path', async () => {
    await refused(withEntry({ name: '/etc/cron.d/evil', data: Buffer.from('x') }), 'INVALID_INPUT', "'/etc/cron.d/evil'", /absolute path/);
  });

  it("refuses '..' segments", async () => {
    const { zip, name } = withFile('../../../../../../evil.sh', { data: Buffer.from('x') });
    await refused(zip, 'INVALID_INPUT', name, /'\.\.' segment/);
  });

  it('refuses backslashes, which act as separators on Windows', async () => {
    const v = validEntries();
    const name = `bundles\\${v.bundleID}\\..\\..\\evil`;
    await refused(rawZip([...v.entries, { name, data: Buffer.from('x') }]), 'INVALID_INPUT', /backslash/);
  });

  it('refuses drive letters', async () => {
    await refused(withEntry({ name: 'C:/Windows/evil.dll', data: Buffer.from('x') }), 'INVALID_INPUT', /drive letter/);
    await refused(withEntry({ name: 'C:evil', data: Buffer.from('x') }), 'INVALID_INPUT', /drive letter/);
  });

  it('refuses names Windows would treat specially (alternate data streams, device names)', async () => {
    await refused(withFile('run.sh:stream', { data: Buffer.from('x') }).zip, 'INVALID_INPUT', /Windows does not allow/);
    await refused(withFile('CON', { data: Buffer.from('x') }).zip, 'INVALID_INPUT', /device name/);
  });

  it('refuses symbolic-link entries (Unix mode in the external attributes)', async () => {
    const { zip, name } = withFile('passwd', { data: Buffer.from('/etc/passwd'), mode: 0o120777 });
    await refused(zip, 'INVALID_INPUT', name, /symbolic link/);
  });

  it('refuses a symbolic link whose archiver claims a non-Unix host', async () => {
    await refused(withFile('link', { data: Buffer.from('/'), mode: 0o120777, madeBy: 20 }).zip, 'INVALID_INPUT', /symbolic link/);
  });

  it('refuses device files and FIFOs', async () => {
    await refused(withFile('fifo', { mode: 0o010644 }).zip, 'INVALID_INPUT', /device, FIFO or socket/);
  });

  it('refuses duplicate names, also those equal up to letter case or Unicode form', async () => {
    const v = validEntries();
    const dockerfile = `${v.toolDir}Dockerfile`;
    await refused(
      rawZip([...v.entries, { name: dockerfile, data: Buffer.from('a') }, { name: dockerfile, data: Buffer.from('b') }]),
      'INVALID_INPUT',
      /appears twice/,
    );
    await refused(
      rawZip([...v.entries, { name: dockerfile, data: Buffer.from('a') }, { name: `${v.toolDir}dockerfile`, data: Buffer.from('b') }]),
      'INVALID_INPUT',
      /only by letter case or Unicode form/,
    );
    const nfc = `${v.toolDir}caf\u00e9.txt`;
    const nfd = `${v.toolDir}cafe\u0301.txt`;
    await refused(
      rawZip([...v.entries, { name: nfc, data: Buffer.from('a') }, { name: nfd, data: Buffer.from('b') }]),
      'INVALID_INPUT',
      /only by letter case or Unicode form/,
    );
  });

  it('refuses a name used both as a file and as a folder', async () => {
    const v = validEntries();
    await refused(
      rawZip([...v.entries, { name: `${v.toolDir}lib`, data: Buffer.from('a') }, { name: `${v.toolDir}lib/x`, data: Buffer.from('b') }]),
      'INVALID_INPUT',
      /is a file, but entry/,
    );
  });

  it('refuses more entries than the cap, before reading any of them', async () => {
    const v = validEntries();
    const many: RawEntry[] = [];
    for (let i = 0; i <= DEFAULT_LIMITS.maxEntries; i++) many.push({ name: `${v.toolDir}f${i}`, method: 0 });
    await refused(rawZip([...v.entries, ...many]), 'PAYLOAD_TOO_LARGE', /more than 50000 entries|holds 50003 entries/);
  });

  it('refuses a zip bomb by its compression ratio, without inflating it', async () => {
    const zeros = Buffer.alloc(48 * 1024 * 1024);
    const { zip, name } = withFile('bomb.bin', { data: zeros });
    const message = await refused(zip, 'PAYLOAD_TOO_LARGE', name, /expands \d+:1/, /zip bomb/);
    expect(message).toContain('100:1');
    expect(deflateRawSync(zeros).length * 100).toBeLessThan(zeros.length); // the case really is past the cap
  });

  it('refuses archives whose declared sizes add up past the total cap', async () => {
    const v = validEntries();
    const many: RawEntry[] = [];
    // Each entry declares 1 MB (under the ratio floor), together more than 512 MB.
    for (let i = 0; i < 520; i++) many.push({ name: `bundles/${v.bundleID}/tools/${uuidv7()}/f`, data: Buffer.alloc(0), declaredSize: 1024 * 1024 });
    await refused(rawZip([...v.entries, ...many]), 'PAYLOAD_TOO_LARGE', /add up to more than 512 MB/);
  });

  it('refuses an entry larger than a build file may be', async () => {
    await refused(withFile('big', { declaredSize: 65 * 1024 * 1024 }).zip, 'PAYLOAD_TOO_LARGE', /declares 65 MB; at most 64 MB/);
  });

  it('refuses an entry whose data is longer than it declares (deflated build file)', async () => {
    const { zip, name } = withFile('liar.txt', { data: Buffer.alloc(200_000, 0x61), declaredSize: 10 });
    await refused(zip, 'PAYLOAD_TOO_LARGE', name, /more data than it declares/);
  });

  it('refuses a tool.json whose data is longer than it declares', async () => {
    const v = validEntries();
    const json = toolJson(v.bundleID, v.toolID);
    const entries = [v.entries[0]!, { name: `${v.toolDir}tool.json`, data: json, declaredSize: 20 }];
    await refused(rawZip(entries), 'PAYLOAD_TOO_LARGE', `${v.toolDir}tool.json`);
  });

  it('refuses a stored entry whose sizes disagree', async () => {
    await refused(withFile('stored', { method: 0, data: Buffer.from('hello world'), declaredSize: 3 }).zip, 'INVALID_INPUT', /size mismatch for stored file/);
  });

  it('refuses overlapping entries (several names sharing one data block)', async () => {
    const v = validEntries();
    const entries = [...v.entries, { name: `${v.toolDir}a`, data: Buffer.from('a') }, { name: `${v.toolDir}b`, data: Buffer.from('a'), sameDataAs: 2 }];
    await refused(rawZip(entries), 'INVALID_INPUT', /shares its data with entry/);
  });

  it('refuses encrypted entries and unknown compression methods', async () => {
    await refused(withFile('secret', { data: Buffer.from('x'), flags: 0x801 }).zip, 'INVALID_INPUT', /encrypted/);
    await refused(withFile('bz', { data: Buffer.from('x'), method: 12 }).zip, 'INVALID_INPUT', /compression method 12/);
  });

  it('refuses names that are not valid UTF-8 although the archive says they are', async () => {
    const v = validEntries();
    await refused(
      rawZip([...v.entries, { name: Buffer.concat([Buffer.from(v.toolDir), Buffer.from([0xff, 0xfe])]), flags: 0x800, data: Buffer.from('x') }]),
      'INVALID_INPUT',
      /not valid UTF-8/,
    );
  });

  it('refuses folder names that are not lower-case UUIDs', async () => {
    await refused(rawZip([{ name: 'bundles/not-a-uuid/bundle.json', data: bundleJson(uuidv7()) }]), 'INVALID_INPUT', /'not-a-uuid' where a bundle ID/);
    const upper = uuidv7().toUpperCase();
    await refused(rawZip([{ name: `bundles/${upper}/bundle.json`, data: bundleJson(upper.toLowerCase()) }]), 'INVALID_INPUT', /upper-case bundle ID/);
    const versionZero = '3b241101-e2bb-0255-8caf-4136c566a962'; // version nibble 0: not a UUID
    await refused(rawZip([{ name: `bundles/${versionZero}/bundle.json`, data: bundleJson(versionZero) }]), 'INVALID_INPUT', /where a bundle ID/);
  });

  it('refuses files outside the layout', async () => {
    await refused(withEntry({ name: 'README.md', data: Buffer.from('hi') }), 'INVALID_INPUT', "'README.md'", /outside the archive layout/);
    const v = validEntries();
    await refused(
      rawZip([...v.entries, { name: `bundles/${v.bundleID}/secrets.json`, data: Buffer.from('{}') }]),
      'INVALID_INPUT',
      /secrets\.json/,
      /outside the archive layout/,
    );
    await refused(rawZip([...v.entries, { name: `bundles/${v.bundleID}/.claims/abc`, data: Buffer.from('x') }]), 'INVALID_INPUT', /outside the archive layout/);
  });

  it('refuses a bundle folder without bundle.json and a tool folder without tool.json', async () => {
    const v = validEntries();
    await refused(rawZip([v.entries[1]!]), 'INVALID_INPUT', /has no bundle\.json/);
    await refused(rawZip([v.entries[0]!, { name: `${v.toolDir}Dockerfile`, data: Buffer.from('FROM scratch') }]), 'INVALID_INPUT', /has no tool\.json/);
  });

  it('refuses what is not a ZIP at all, and an empty archive', async () => {
    await refused(Buffer.from('definitely not a zip file, just text'), 'INVALID_INPUT', /not a readable ZIP/);
    await refused(rawZip([]), 'INVALID_INPUT', /holds no bundles/);
  });

  it('refuses an archive over the size cap', async () => {
    const small = await openTransferStore({ transfer: { limits: { maxArchiveBytes: 1000 } } });
    try {
      await expect(small.transfer.importZip(Buffer.alloc(2000), 'skip')).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    } finally {
      await small.cleanup();
    }
  });

  it('refuses JSON that lies about where it lives, or breaks the rules, listing every problem', async () => {
    const v = validEntries();
    const otherTool = uuidv7();
    const bad = rawZip([
      v.entries[0]!,
      { name: `${v.toolDir}tool.json`, data: toolJson(v.bundleID, otherTool) },
      {
        name: `bundles/${v.bundleID}/tools/${otherTool}/tool.json`,
        data: toolJson(v.bundleID, otherTool, { slug: 'cafe\u0301', impl: { method: 'GET', urlTemplate: 'https://${host}/x' } as never, type: 'http' }),
      },
    ]);
    let error: (Error & { code?: string; details?: { issues?: { field: string; message: string }[] } }) | undefined;
    try {
      await t.transfer.importZip(bad, 'skip');
    } catch (e) {
      error = e as typeof error;
    }
    expect(error?.code).toBe('INVALID_INPUT');
    const issues = error!.details!.issues!;
    expect(issues.some((i) => i.field === `${v.toolDir}tool.json` && /does not match its folder name/.test(i.message))).toBe(true);
    expect(issues.some((i) => i.field.includes(otherTool) && /NFC/.test(i.message))).toBe(true);
    expect(await listTree(t.dataDir)).toEqual(before);
  });

  it('refuses a tool whose impl breaks the rules (placeholder neither argument nor secret)', async () => {
    const v = validEntries();
    const zip = rawZip([
      v.entries[0]!,
      {
        name: `${v.toolDir}tool.json`,
        data: toolJson(v.bundleID, v.toolID, {
          type: 'http',
          impl: { method: 'GET', urlTemplate: 'https://api.example.com/${city}/${lowercase_secret}' } as never,
          argSchema: { type: 'object', properties: { city: { type: 'string' } } },
        }),
      },
    ]);
    await refused(zip, 'INVALID_INPUT', /lowercase_secret/);
  });

  it('ignores only the litter macOS Finder adds, and says so', async () => {
    const v = validEntries();
    const fresh = await openTransferStore();
    try {
      const report = await fresh.transfer.importZip(
        rawZip([...v.entries, { name: '__MACOSX/._bundle.json', data: Buffer.from('x') }, { name: `bundles/${v.bundleID}/.DS_Store`, data: Buffer.from('x') }]),
        'skip',
      );
      expect(report.created).toHaveLength(1);
      expect(report.warnings?.[0]).toMatch(/ignored 2 entries macOS Finder adds/);
    } finally {
      await fresh.cleanup();
    }
  });
});
