/**
 * One thin handler per operation: take the validated input, call one service, return.
 * Each handler's input and output types come from the contract in shared/operations.ts.
 */
import type { Handlers } from './dispatch.js';
import type { Core } from '../app-core.js';
import { CoreError } from '../errors.js';

export function createHandlers(core: Core): Handlers {
  const { bundles, tools, store } = core;
  const ref = (i: { bundleID: string; slug: string; version: string }) => ({ bundleID: i.bundleID, slug: i.slug, version: i.version });
  return {
    'bundles.list': (i) => bundles.list(i),
    'bundles.get': async (i) => {
      await store.freshBundle(i.bundleID);
      return bundles.get(i.bundleID);
    },
    'bundles.put': (i) => bundles.put(i.bundleID, i.bundle),
    'bundles.patch': async (i) => {
      await store.freshBundle(i.bundleID);
      return bundles.patch(i.bundleID, i.patch.isEnabled);
    },
    'bundles.delete': async (i) => {
      await store.freshBundle(i.bundleID);
      return bundles.softDelete(i.bundleID);
    },
    'bundles.restore': async (i) => {
      await store.freshBundle(i.bundleID);
      return bundles.restore(i.bundleID);
    },
    'tools.list': (i) => tools.list(i),
    'tools.get': (i) => tools.get(ref(i)),
    'tools.put': (i) => tools.create(ref(i), i.tool),
    'tools.update': (i) => tools.update(ref(i), i.tool, i.ifModifiedAt),
    'tools.patch': (i) => tools.setEnabled(ref(i), i.patch.isEnabled),
    'tools.delete': async (i) => {
      const rec = await store.tool(i.bundleID, i.slug, i.version);
      await tools.delete(ref(i));
      await Promise.all([core.metrics.remove(rec.file.toolID), core.history.remove(rec.file.toolID)]);
      return { deleted: true as const };
    },
    'tools.search': (i) => core.searchTools(i),
    'tools.invoke': async (i) => {
      const rec = await store.tool(i.bundleID, i.slug, i.version);
      const bundle = store.bundle(i.bundleID).file;
      return core.engine.invoke(rec, bundle, { args: i.args, confirm: i.confirm, invocationID: i.invocationID });
    },
    'tools.cancel': (i) => ({ cancelled: core.engine.cancel(i.invocationID) }),
    'tools.history': async (i) => {
      const rec = await store.tool(i.bundleID, i.slug, i.version);
      return { items: await core.history.list(rec.file.toolID, i.limit) };
    },
    'config.get': () => core.config.get(),
    'config.patch': (i) => core.config.patch(i.patch),
    'secrets.list': () => ({ items: core.secrets.list() }),
    'secrets.set': (i) => core.secrets.set(i.name, i.value),
    'secrets.delete': async (i) => {
      if (!(await core.secrets.delete(i.name))) throw new CoreError('NOT_FOUND', `secret ${i.name} is not set`);
      return { deleted: true };
    },
    'problems.list': () => ({ items: [...store.problems(), ...core.secrets.problems()].sort((a, b) => a.path.localeCompare(b.path)) }),
    'functions.list': () => ({ items: core.functions.list() }),
    'system.info': () => core.systemInfo(),
    'bundles.export': (i) => core.transfer.exportBundles(i.bundleIDs),
    'bundles.import': (i) => core.transfer.importZip(i.zip, i.onConflict ?? 'skip', { dryRun: i.dryRun === true }),
    'bundles.importSkill': (i) => core.transfer.importSkillMd(i.text, { dryRun: i.dryRun === true }),
    'bundles.importOpenApi': (i) => core.transfer.importOpenApi(i.document, { dryRun: i.dryRun === true, ...(i.serverUrl ? { serverUrl: i.serverUrl } : {}) }),
    'tools.importContainer': (i) => core.transfer.importContainerFiles(i.bundleID, i.files),
    'tools.openaiFunctions': (i) => ({ items: core.transfer.openAiFunctions(i.bundleIDs) }),
  };
}
