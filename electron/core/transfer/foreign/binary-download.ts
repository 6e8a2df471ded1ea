/**
 * A3S binary backends given by `url`, downloaded once at import into the tool's folder
 * (bin/<name>, built into its image): through the guard http tools use (config.allowedHosts, the
 * private-address rule at connect time, each redirect checked), at most one build file's size
 * (TransferLimits.maxFileBytes), within a deadline. The sha256 of what arrived is recorded in
 * tool.json's extensions.a3s.binary and, when the manifest gives one, must match it.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../../../../shared/schemas.js';
import { formatBytes } from '../../../../shared/format.js';
import { CoreError } from '../../errors.js';
import type { GuardedWeb } from '../../functions/services.js';
import type { ToolDraft } from '../validate.js';
import { bytesSource } from './common.js';
import type { BinaryFetch } from './skill-md.js';

export const BINARY_DOWNLOAD_TIMEOUT_MS = 120_000;

export interface BinaryDownloadDeps {
  /** A guarded client whose response cap is `maxBytes`; undefined where nothing may be downloaded. */
  web: ((maxBytes: number) => GuardedWeb) | undefined;
  config: Config;
  maxBytes: number;
  timeoutMs?: number;
}

/** Downloads one program and returns the tool with it among its files and its checksum recorded; throws a CoreError saying why not. */
async function fetchInto(tool: ToolDraft, fetch: BinaryFetch, web: GuardedWeb, deps: BinaryDownloadDeps): Promise<ToolDraft> {
  const what = `the binary's URL`;
  let res;
  try {
    res = await web.get(fetch.url, {
      config: deps.config,
      signal: new AbortController().signal,
      timeoutMs: deps.timeoutMs ?? BINARY_DOWNLOAD_TIMEOUT_MS,
      what,
      headers: { accept: 'application/octet-stream, */*' },
    });
  } catch (e) {
    if (e instanceof CoreError && e.details?.['reason'] === 'response-too-large') {
      throw new CoreError(
        'PAYLOAD_TOO_LARGE',
        `the binary at ${fetch.url.host} is larger than the ${formatBytes(deps.maxBytes)} a file of a tool's folder may hold`,
        { url: fetch.url.href, capBytes: deps.maxBytes },
      );
    }
    throw e;
  }
  if (res.status !== 200)
    throw new CoreError('UPSTREAM_ERROR', `the binary's URL answered ${res.status}, not 200`, { url: fetch.url.href, status: res.status });
  if (res.body.length === 0) throw new CoreError('UPSTREAM_ERROR', `the binary's URL answered an empty file`, { url: fetch.url.href });
  const sha256 = createHash('sha256').update(res.body).digest('hex');
  if (fetch.sha256 && fetch.sha256 !== sha256) {
    throw new CoreError(
      'INVALID_INPUT',
      `the binary's checksum does not match: the manifest gives sha256 ${fetch.sha256}, the download is ${sha256}; the file changed or was tampered with, so it was not kept`,
      { url: fetch.url.href, expected: fetch.sha256, actual: sha256 },
    );
  }
  const binary = { url: fetch.url.href, sha256, bytes: res.body.length, ...(fetch.sha256 ? { verified: true } : {}) };
  const kept = (tool.file.extensions ?? {}) as Record<string, unknown>;
  const extensions = { ...kept, a3s: { ...((kept['a3s'] as object | undefined) ?? {}), binary } };
  return { ...tool, file: { ...tool.file, extensions }, files: [...tool.files, bytesSource(`bin/${fetch.fileName}`, res.body, true)] };
}

/**
 * Fetches every program an import's binary backends name, one at a time. A tool whose download
 * is refused or fails is left out with the reason (`failed`); the others come back with their
 * program among their files.
 */
export async function downloadBinaries(
  tools: readonly ToolDraft[],
  fetches: ReadonlyMap<ToolDraft, BinaryFetch>,
  deps: BinaryDownloadDeps,
): Promise<{ tools: ToolDraft[]; failed: { origin: string; reason: string }[] }> {
  if (fetches.size === 0) return { tools: [...tools], failed: [] };
  const web = deps.web?.(deps.maxBytes);
  const out: ToolDraft[] = [];
  const failed: { origin: string; reason: string }[] = [];
  try {
    for (const tool of tools) {
      const fetch = fetches.get(tool);
      if (!fetch) {
        out.push(tool);
        continue;
      }
      if (!web) {
        failed.push({ origin: fetch.origin, reason: 'its binary is given by url, and this process cannot download (no network client)' });
        continue;
      }
      try {
        out.push(await fetchInto(tool, fetch, web, deps));
      } catch (e) {
        if (!(e instanceof CoreError)) throw e;
        failed.push({ origin: fetch.origin, reason: `backend.url: ${e.message}` });
      }
    }
  } finally {
    await web?.close();
  }
  return { tools: out, failed };
}
