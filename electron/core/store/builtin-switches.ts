/**
 * Built-in bundles and tools ship read-only; only their on/off switch is the person's, kept in
 * builtin-state.json (BuiltinState). This applies that file over what shipped, at load, when
 * the person flips a switch and when the file changes on disk.
 */
import { CoreError } from '../errors.js';
import type { BuiltinState } from './builtin-state.js';
import type { StoreState } from './state.js';
import type { StoreNotifier } from './notifier.js';
import type { BundleRecord, ToolRecord } from './loader.js';

export class BuiltinSwitches {
  constructor(
    private readonly state: StoreState,
    private readonly file: BuiltinState,
    private readonly notifier: StoreNotifier,
  ) {}

  /** A loaded bundle as memory holds it: user bundles never claim to be built-in; built-ins get their switch. */
  effectiveBundle(b: BundleRecord): BundleRecord {
    if (!b.builtin) return b.file.isBuiltIn ? { ...b, file: { ...b.file, isBuiltIn: false } } : b;
    // The on/off switch lives in builtin-state.json: the view's etag hashes the file as served (store/tags.ts).
    return { file: { ...b.file, isBuiltIn: true, isEnabled: this.file.bundleEnabled(b.file.bundleID, b.file.isEnabled) }, builtin: true, dir: b.dir };
  }

  effectiveTool(t: ToolRecord): ToolRecord {
    if (!t.builtin) return t.file.isBuiltIn ? { ...t, file: { ...t.file, isBuiltIn: false } } : t;
    return { file: { ...t.file, isBuiltIn: true, isEnabled: this.file.toolEnabled(t.file.toolID, t.file.isEnabled) }, builtin: true, dir: t.dir };
  }

  async setBundleEnabled(rec: BundleRecord, enabled: boolean): Promise<BundleRecord> {
    await this.file.set('bundles', rec.file.bundleID, enabled);
    const next = { ...rec, file: { ...rec.file, isEnabled: enabled } };
    this.state.setBundle(next);
    this.notifier.bundleChanged(next);
    return next;
  }

  /** As for any bundle (store.writableBundle), a tool of a bundle that is switched off keeps its switch. */
  async setToolEnabled(rec: ToolRecord, enabled: boolean): Promise<ToolRecord> {
    const bundle = this.state.bundles.get(rec.file.bundleID);
    const bundleSlug = bundle?.file.slug ?? rec.file.bundleID;
    await this.file.set('tools', rec.file.toolID, enabled, () => {
      if (this.file.bundleEnabled(rec.file.bundleID, true)) return;
      throw new CoreError('BUNDLE_DISABLED', `bundle '${bundleSlug}' is switched off; switch it on before you switch its tools on or off`, {
        bundleID: rec.file.bundleID,
      });
    });
    const next = { ...rec, file: { ...rec.file, isEnabled: enabled } };
    this.state.setTool(next);
    this.notifier.toolChanged(next);
    return next;
  }

  /** Re-reads builtin-state.json after a change on disk and applies what differs. */
  async sync(): Promise<void> {
    await this.file.reload();
    for (const rec of [...this.state.bundles.values()]) {
      if (!rec.builtin) continue;
      const enabled = this.file.bundleEnabled(rec.file.bundleID, true);
      if (enabled === rec.file.isEnabled) continue;
      const next = { ...rec, file: { ...rec.file, isEnabled: enabled } };
      this.state.setBundle(next);
      this.notifier.bundleChanged(next);
    }
    for (const rec of [...this.state.tools.values()]) {
      if (!rec.builtin) continue;
      const enabled = this.file.toolEnabled(rec.file.toolID, true);
      if (enabled === rec.file.isEnabled) continue;
      const next = { ...rec, file: { ...rec.file, isEnabled: enabled } };
      this.state.setTool(next);
      this.notifier.toolChanged(next);
    }
  }
}
