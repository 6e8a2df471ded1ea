/**
 * The container type's service: a tool's settings read, written and tested on their own
 * (shared/operations/tool-config.ts; docs/contracts.md, "Tool settings"). Plain values are written
 * into tool.json's impl.settings under the bundle's lock, in a bundle that takes writes; secret
 * values go to the secrets store under the name the setting gives, and never come back out.
 */
import type { toolConfigOperations } from '../../../../shared/operations/tool-config.js';
import type { ContainerImpl } from '../../../../shared/tool-types/container.js';
import type { ConfigTestResult, ToolConfigView } from '../../../../shared/tool-config.js';
import type { ToolFile } from '../../../../shared/schemas.js';
import { plural } from '../../../../shared/format.js';
import { CoreError, invalid } from '../../errors.js';
import type { ToolRef } from '../../store/tools.js';
import type { TypeService, TypeServiceContext } from '../type-service.js';
import { configProblems, planSettingsWrite, settingViews } from './settings.js';

export type ContainerTypeService = TypeService<typeof toolConfigOperations>;

const refOf = (i: ToolRef): ToolRef => ({ bundleID: i.bundleID, slug: i.slug, version: i.version });

export function openContainerService(ctx: TypeServiceContext): ContainerTypeService {
  const containerImpl = (file: ToolFile): ContainerImpl => {
    if (file.type !== 'container') {
      throw invalid([
        {
          field: 'tool',
          message: `${file.slug} ${file.version} is a ${file.type} tool; settings belong to container tools (the secrets an ${file.type} tool names are set under Settings → Secrets, PUT /tools/secrets/{name})`,
        },
      ]);
    }
    return file.impl as ContainerImpl;
  };

  const view = async (ref: ToolRef): Promise<ToolConfigView> => {
    const tool = await ctx.tools().get(ref);
    const impl = containerImpl(tool);
    return {
      bundleID: tool.bundleID,
      toolID: tool.toolID,
      slug: tool.slug,
      version: tool.version,
      settings: settingViews(impl, ctx.secrets),
      ...(impl.settingsSchema ? { schema: impl.settingsSchema } : {}),
      ...(tool.etag ? { etag: tool.etag } : {}),
    };
  };

  const put = async (ref: ToolRef, patch: Record<string, string | number | boolean | null>): Promise<ToolConfigView> => {
    const rec = await ctx.store.tool(ref.bundleID, ref.slug, ref.version);
    containerImpl(rec.file);
    ctx.store.refuseBuiltin(ref.bundleID, 'cannot change the settings of a built-in tool');
    await ctx.store.withBundleLock(ref.bundleID, async () => {
      await ctx.store.writableBundle(ref.bundleID, 'change the settings of its tools');
      const disk = await ctx.store.readToolFile(ref.bundleID, rec.file.toolID);
      if (!disk || disk.slug !== rec.file.slug || disk.version !== rec.file.version) {
        throw new CoreError('NOT_FOUND', `tool <${ref.slug},${ref.version}> was deleted or renamed meanwhile; reload it`);
      }
      const impl = containerImpl(disk);
      const plan = planSettingsWrite(impl, patch, ctx.secrets);
      if (plan.issues.length) throw invalid(plan.issues);
      if (Object.keys(plan.plain).length) {
        const settings = { ...(impl.settings ?? {}), ...plan.plain };
        // A new value is a change of what the tool does: modifiedAt moves, as for an edit.
        const patched = await ctx.store.patchToolFile(ref.bundleID, disk.toolID, { impl: { ...impl, settings }, modifiedAt: new Date().toISOString() });
        ctx.store.applyTool(patched.file, patched.etag);
      }
      for (const { name, value } of plan.secretWrites) {
        if (value === null) await ctx.secrets.delete(name);
        else await ctx.secrets.set(name, value);
      }
      if (plan.secretWrites.length) ctx.emit({ type: 'secrets.changed' });
    });
    return view(ref);
  };

  const test = async (ref: ToolRef): Promise<ConfigTestResult> => {
    const tool = await ctx.tools().get(ref);
    const { problems, notes } = configProblems(containerImpl(tool), ctx.secrets);
    const availability = tool.availability;
    const ok = problems.length === 0;
    const summary = !ok
      ? `${plural(problems.length, 'problem')} with the settings: ${problems.map((p) => p.message).join('; ')}`
      : availability.ok
        ? 'Every required setting is set and every value fits its schema; the tool can run.'
        : `Every required setting is set and every value fits its schema, but the tool cannot run now: ${availability.reason ?? 'unavailable'}`;
    return { ok, problems, notes, availability, summary };
  };

  return {
    handlers: {
      'toolConfig.get': (i) => view(refOf(i)),
      'toolConfig.put': (i) => put(refOf(i), i.settings),
      'toolConfig.test': (i) => test(refOf(i)),
    },
  };
}
