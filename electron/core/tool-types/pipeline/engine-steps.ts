/** The StepInvoker of a running core: tools from the store's memory, calls through the engine. */
import type { StepToolRef } from '../../../../shared/tool-types/pipeline.js';
import type { Availability, InvokeResult } from '../../../../shared/types.js';
import type { Safety } from '../../../../shared/schemas.js';
import type { StoreReader } from '../../store/reader.js';
import type { InvocationEngine, InvokeInput } from '../../invoke/engine.js';
import type { StepInvoker, StepTarget } from './step-invoker.js';

/** Slugs are stored NFC; most are ASCII, which needs no normalising. */
function nfc(s: string): string {
  return /^[\x20-\x7e]*$/.test(s) ? s : s.normalize('NFC');
}

export class EngineSteps implements StepInvoker {
  constructor(
    private readonly store: StoreReader,
    private readonly engine: InvocationEngine,
  ) {}

  find(ref: StepToolRef, ownBundleID: string): StepTarget | { missing: string } {
    const bundleID = (ref.bundleID ?? ownBundleID).toLowerCase();
    const bundle = this.store.bundle(bundleID);
    if (!bundle) return { missing: `bundle ${ref.bundleSlug ?? bundleID} does not exist here` };
    const rec = this.store.toolByPair(bundleID, nfc(ref.slug), nfc(ref.version));
    if (!rec) return { missing: `there is no tool ${bundle.file.slug}/${ref.slug} ${ref.version}` };
    return { tool: rec, bundle: bundle.file };
  }

  availability({ tool, bundle }: StepTarget): Availability {
    if (bundle.softDeletedAt) return { ok: false, reason: `bundle ${bundle.slug} is in the Trash` };
    if (!bundle.isEnabled) return { ok: false, reason: `bundle ${bundle.slug} is switched off` };
    if (!tool.file.isEnabled) return { ok: false, reason: 'the tool is switched off' };
    return this.engine.availability(tool);
  }

  safety(target: StepTarget): { safety: Safety; because?: string } {
    return this.engine.safetyOf(target.tool);
  }

  invoke(target: StepTarget, input: InvokeInput): Promise<InvokeResult> {
    return this.engine.invoke(target.tool, target.bundle, input);
  }
}
