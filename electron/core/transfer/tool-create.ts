/**
 * Creates one tool together with the files beside its tool.json (a container tool's Dockerfile
 * and runner), atomically: the same protocol as ToolService.create (staging folder, claim
 * published with link() as the commit point, rename into place), with the build files written
 * into the staging folder before the claim, so the tool never exists without them.
 */
import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ToolFile } from '../../../shared/schemas.js';
import type { ToolView } from '../../../shared/types.js';
import { CoreError, invalid } from '../errors.js';
import type { Store } from '../store/store.js';
import type { ToolService } from '../store/tools.js';
import { writeToolFolder } from './stage.js';
import { checkToolRules, type FileSource } from './validate.js';

function conflict(slug: string, version: string): CoreError {
  return new CoreError(
    'CONFLICT',
    `a tool <${slug},${version}> already exists in this bundle; change the name or version in the manifest, or delete the existing tool`,
    { slug, version },
  );
}

export async function createToolWithFiles(store: Store, tools: ToolService, file: ToolFile, files: FileSource[]): Promise<ToolView> {
  const { bundleID, slug, version, toolID } = file;
  await store.freshBundle(bundleID);
  store.refuseBuiltin(bundleID, 'cannot add tools to a built-in bundle');
  const { issues } = checkToolRules(file, store.config.get(), `${slug} ${version}`);
  if (issues.length) throw invalid(issues);
  return store.withBundleLock(bundleID, async () => {
    await store.writableBundle(bundleID, 'add tools to it');
    const claim = await store.claims.inspect(bundleID, slug, version);
    if (claim.kind === 'taken') throw conflict(slug, version);
    if (claim.kind === 'stale') await store.claims.release(bundleID, slug, version, claim.toolID);
    const owner = store.reader.toolByPair(bundleID, slug, version)?.file.toolID;
    if (owner && (await store.readToolFile(bundleID, owner).catch(() => undefined))) throw conflict(slug, version);

    const toolsDir = store.paths.toolsDir(bundleID);
    await fsp.mkdir(toolsDir, { recursive: true });
    // Named like ToolService's staging folders, so start-up recovery completes or sweeps it the same way.
    const staging = join(toolsDir, `.staging-${toolID}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    await fsp.mkdir(staging);
    try {
      await writeToolFolder(staging, file, files);
      if (!(await store.claims.publish(bundleID, slug, version, toolID))) throw conflict(slug, version);
    } catch (e) {
      await fsp.rm(staging, { recursive: true, force: true });
      throw e;
    }
    await store.claims.completeStaged(bundleID, toolID, staging);
    return tools.view(store.applyTool(file));
  });
}

/** What createToolWithFiles would make, checked the same way up to the write: nothing is written. */
export async function previewToolWithFiles(store: Store, tools: ToolService, file: ToolFile): Promise<ToolView> {
  const { bundleID, slug, version } = file;
  await store.freshBundle(bundleID);
  store.refuseBuiltin(bundleID, 'cannot add tools to a built-in bundle');
  const { issues } = checkToolRules(file, store.config.get(), `${slug} ${version}`);
  if (issues.length) throw invalid(issues);
  await store.writableBundle(bundleID, 'add tools to it');
  const claim = await store.claims.inspect(bundleID, slug, version);
  if (claim.kind === 'taken' || store.reader.toolByPair(bundleID, slug, version)) throw conflict(slug, version);
  return tools.view({ file, dir: join(store.paths.toolsDir(bundleID), file.toolID), builtin: false });
}
