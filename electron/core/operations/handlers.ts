/**
 * One thin handler per operation: take the validated input, call one service, return. Each
 * handler's input and output types come from the contract in shared/operations.ts. The operations
 * of a tool type's domain are its service's (./type-handlers.ts merges them in).
 */
import type { CallContext } from './dispatch.js';
import type { GenericHandlers } from './type-handlers.js';
import type { Services } from './services.js';
import { callerLabel } from '../../../shared/caller.js';

/**
 * Who may answer an upstream server's question during a call: what the transport says (MCP knows
 * its client), else a person in the app when the call comes from the app — over IPC, or the
 * tester's streaming REST call; a plain REST call, the CLI and a schedule have nobody.
 */
function answerersOf(ctx: CallContext) {
  if (ctx.stream?.answerers) return { answerers: ctx.stream.answerers };
  const { transport } = ctx.caller;
  if (transport === 'app' || (transport === 'rest' && ctx.stream?.onStart)) return { answerers: { person: true } };
  return {};
}

const ref = (i: { bundleID: string; slug: string; version: string }) => ({ bundleID: i.bundleID, slug: i.slug, version: i.version });

export function createHandlers(s: Services): GenericHandlers {
  return {
    'bundles.list': (i) => s.bundles.list(i),
    'bundles.get': (i) => s.bundles.get(i.bundleID),
    'bundles.put': (i) => s.bundles.put(i.bundleID, i.bundle, i.ifMatch),
    'bundles.patch': (i) => s.bundles.patch(i.bundleID, i.patch.isEnabled, i.ifMatch),
    'bundles.delete': (i) => s.bundles.softDelete(i.bundleID),
    'bundles.restore': (i) => s.bundles.restore(i.bundleID),
    'bundles.purge': (i) => s.trash.purge(i.bundleID),
    'tools.list': (i) => s.tools.list(i),
    'tools.get': (i) => s.tools.get(ref(i)),
    'tools.put': (i) => s.tools.create(ref(i), i.tool),
    'tools.update': (i) => s.tools.update(ref(i), i.tool, i.ifMatch ?? i.ifModifiedAt),
    'tools.patch': (i) => s.tools.setEnabled(ref(i), i.patch.isEnabled, i.ifMatch),
    'tools.delete': async (i) => {
      await s.tools.delete(ref(i));
      return { deleted: true as const };
    },
    'tools.search': (i) => s.search.search(i),
    'tools.invoke': (i, ctx) =>
      s.invocations.invoke(ref(i), {
        args: i.args,
        confirm: i.confirm,
        invocationID: i.invocationID,
        caller: ctx.caller,
        ...ctx.stream,
        ...answerersOf(ctx),
      }),
    'tools.cancel': (i) => s.invocations.cancel(i.invocationID),
    'tools.history': (i) => s.invocations.recent(ref(i), i.limit),
    'tools.searchLearning': (i) => s.search.learning.show(i.toolID),
    'tools.searchLearningReset': (i) => s.search.learning.reset(i.toolID),
    'config.get': () => s.config.get(),
    'config.patch': (i) => s.config.patch(i.patch),
    'secrets.list': () => ({ items: s.secrets.list() }),
    'secrets.set': (i) => s.secrets.set(i.name, i.value),
    'secrets.delete': (i) => s.secrets.remove(i.name),
    'agents.list': async () => ({ items: await s.agents.list() }),
    'approvals.list': async () => ({ items: await s.approvals.list() }),
    'approvals.decide': (i, ctx) => s.approvals.decide(i.approvalID, i.decision, i.content, ctx.caller),
    'audit.list': (i) => s.audit.list(i),
    'audit.verify': () => s.audit.verify(),
    'problems.list': () => s.problems.list(),
    'functions.list': () => ({ items: s.functions.list() }),
    'system.info': () => s.system.info(),
    'bundles.export': (i) => s.transfer.exportBundles(i.bundleIDs),
    'bundles.import': (i) => s.transfer.importZip(i.zip, i.onConflict ?? 'skip', { dryRun: i.dryRun === true }),
    'bundles.importSkill': (i) => s.transfer.importSkillMd(i.text, { dryRun: i.dryRun === true }),
    'bundles.importOpenApi': (i) => s.transfer.importOpenApi(i.document, { dryRun: i.dryRun === true, ...(i.serverUrl ? { serverUrl: i.serverUrl } : {}) }),
    'tools.importContainer': (i) => s.transfer.importContainerFiles(i.bundleID, i.files, { dryRun: i.dryRun === true }),
    'tools.openaiFunctions': (i) => ({ items: s.transfer.openAiFunctions(i.bundleIDs) }),
    'tools.lint': (i) => s.lint.lint(i),
    'schedules.list': (i) => s.schedules.list(i.toolID ? { toolID: i.toolID } : {}),
    'schedules.patch': (i) => s.schedules.setEnabled(i.scheduleID, i.patch.isEnabled),
    'schedules.run': (i) => s.schedules.runNow(i.scheduleID, { confirm: i.confirm === true }),
    'schedules.latest': (i) => s.schedules.latest(i.scheduleID),
    'schedules.create': (i, ctx) => s.scheduleManager.create(i, ctx.caller),
    'schedules.search': (i, ctx) => s.scheduleManager.search(i, ctx.caller),
    'schedules.edit': (i, ctx) => s.scheduleManager.edit(i.scheduleID, i.patch, ctx.caller),
    'schedules.delete': (i, ctx) => s.scheduleManager.delete(i.scheduleID, ctx.caller),
    'schedules.runs': (i, ctx) => s.scheduleManager.runs(i, ctx.caller),
    'schedules.runOutput': (i, ctx) => s.scheduleManager.runOutput(i, ctx.caller),
    'buildFiles.list': (i) => s.buildFiles.list(ref(i)),
    'buildFiles.read': (i) => s.buildFiles.read(ref(i), i.path),
    'buildFiles.write': (i) => s.buildFiles.write(ref(i), i),
    'buildFiles.rename': (i) => s.buildFiles.rename(ref(i), i.from, i.to),
    'buildFiles.delete': (i) => s.buildFiles.delete(ref(i), i.path),
    'tools.build': (i) => s.builds.build(ref(i), { ...(i.buildID ? { buildID: i.buildID } : {}), ...(i.noCache ? { noCache: true } : {}) }),
    'tools.image': (i) => s.builds.image(ref(i)),
    'tools.guard': (i) => s.guard.review(ref(i)),
    'tools.acceptGuard': (i, ctx) => s.guard.accept(ref(i), i.digest, callerLabel(ctx.caller)),
    'profiles.list': () => s.profiles.list(),
    'profiles.get': (i) => s.profiles.get(i.profileID),
    'profiles.put': (i) => s.profiles.put(i.profileID, i.profile, i.ifModifiedAt ?? i.ifMatch),
    'profiles.delete': (i) => s.profiles.delete(i.profileID),
    'profiles.tokens.list': (i) => s.profiles.listTokens(i.profileID),
    'profiles.tokens.create': (i) => s.profiles.createToken(i.profileID, i.label),
    'profiles.tokens.revoke': (i) => s.profiles.revokeToken(i.profileID, i.tokenID),
    'agents.surface': (i, ctx) => s.agentSurface.surface(i.audience, ctx.caller, i.via),
    'agents.call': (i, ctx) => s.agentSurface.call(i, ctx.caller, ctx.stream),
    'agents.tasks.get': (i, ctx) => s.agentSurface.taskGet(i.audience, i.taskId, ctx.caller),
    'agents.tasks.update': async (i, ctx) => (await s.agentSurface.taskUpdate(i.audience, i.taskId, i.answer, ctx.caller), {}),
    'agents.tasks.cancel': async (i, ctx) => (await s.agentSurface.taskCancel(i.audience, i.taskId, ctx.caller), {}),
    'agents.resources': (i) => s.agentSurface.resources(i.audience),
    'agents.scheduleLatest': (i) => s.agentSurface.scheduleLatest(i.audience, i.scheduleID),
    'agents.door': (i) => s.agentSurface.door(i.profile, i.token),
    'agents.connect': async (i, ctx) => ({ connectionID: await s.agentSurface.connect(ctx.caller, i.channel) }),
    'agents.disconnect': async (i) => (await s.agentSurface.disconnect(i.connectionID), {}),
  };
}
