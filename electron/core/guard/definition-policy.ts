/**
 * The definition guard's policy (shared/guard/policy.ts): under `withhold` (a bundle's, else
 * config's), a tool whose definition holds a guard error is not offered to agents and its calls
 * are refused saying why, until a person accepts the findings; the acceptance is pinned to a
 * digest of what the guard read, so a later change of the definition (a rug-pull) re-opens it.
 * Under `warn` (the default) the findings are shown and the tool is offered as before.
 * Look-alike names are compared across tools and reported by lint; they do not withhold.
 */
import { createHash } from 'node:crypto';
import { guardPolicy } from '../../../shared/guard/policy.js';
import type { GuardDefinition } from '../../../shared/guard/types.js';
import type { Config, ToolFile } from '../../../shared/schemas.js';
import type { Store } from '../store/store.js';
import type { ToolService } from '../store/tools.js';
import type { ToolRef } from '../store/tools.js';
import type { ToolView } from '../../../shared/types.js';
import { CoreError } from '../errors.js';
import { definitionOfTool, ToolGuard } from './tool-guard.js';

export interface DefinitionPolicyDeps {
  store: Store;
  tools: Pick<ToolService, 'get'>;
  config: () => Config;
  /** The app's guard (its reports cached per tool file); a fresh one when left out. */
  guard?: ToolGuard;
  /** An upstream server's instructions, which agents read with its tools. */
  instructionsOf?: (bundleID: string) => string | undefined;
}

/** sha256 of what the guard reads of a tool, in a stable key order. */
export function guardDigest(def: GuardDefinition): string {
  return `sha256:${createHash('sha256').update(stableJson(def)).digest('hex')}`;
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export class DefinitionPolicy {
  private readonly digests = new WeakMap<object, { instructions: string | undefined; digest: string }>();

  /** The analyser this policy reads with, shared with lint. */
  readonly guard: ToolGuard;

  constructor(private readonly deps: DefinitionPolicyDeps) {
    this.guard = deps.guard ?? new ToolGuard();
  }

  /** The digest a person's acceptance of this tool's findings is pinned to. */
  digestOf(file: ToolFile): string {
    const instructions = this.deps.instructionsOf?.(file.bundleID);
    const seen = this.digests.get(file);
    if (seen && seen.instructions === instructions) return seen.digest;
    const digest = guardDigest(definitionOfTool(file, instructions));
    this.digests.set(file, { instructions, digest });
    return digest;
  }

  /** The classes of the guard's errors in a tool's definition (empty: none). */
  errorClasses(file: ToolFile): string[] {
    const report = this.guard.report(file, this.deps.instructionsOf?.(file.bundleID));
    return report.worst === 'error' ? [...new Set(report.findings.filter((f) => f.severity === 'error').map((f) => f.class))] : [];
  }

  /** Why agents must not have this tool now under its bundle's guard policy, or undefined. */
  withheld(file: ToolFile): string | undefined {
    const bundle = this.deps.store.reader.bundle(file.bundleID)?.file;
    if (guardPolicy(bundle, this.deps.config()) !== 'withhold') return undefined;
    const classes = this.errorClasses(file);
    if (!classes.length) return undefined;
    if (file.guard?.accepted?.digest === this.digestOf(file)) return undefined;
    const where = bundle ? `bundle '${bundle.slug}'` : 'the bundle';
    return `the definition guard found ${classes.join(', ')} in what agents read of this tool and ${where} withholds such tools: read the findings (the tool's view, GET /tools/lint), fix the definition, or accept the findings (POST …/guard/accept) before agents may use it`;
  }

  /**
   * A person accepts the guard's findings on a tool as its definition is now (`digest`: the one
   * they reviewed; refused when the definition changed since). Written into tool.json `guard.accepted`.
   */
  async accept(ref: ToolRef, digest: string | undefined, by: string): Promise<ToolView> {
    const { store } = this.deps;
    await store.tool(ref.bundleID, ref.slug, ref.version);
    return store.withBundleLock(ref.bundleID, async () => {
      const rec = await store.tool(ref.bundleID, ref.slug, ref.version);
      if (store.reader.bundle(ref.bundleID)?.file.isBuiltIn) throw new CoreError('BUILTIN_READONLY', 'built-in tools cannot be changed');
      const now = this.digestOf(rec.file);
      if (digest !== undefined && digest !== now) {
        throw new CoreError('MODIFIED_ELSEWHERE', `the definition changed since you reviewed its findings (now ${now}); review them again`);
      }
      const classes = this.errorClasses(rec.file);
      const accepted = { digest: now, acceptedAt: store.now(), by: by.slice(0, 256), ...(classes.length ? { classes } : {}) };
      const patched = await store.patchToolFile(ref.bundleID, rec.file.toolID, { guard: { ...rec.file.guard, accepted } } as Partial<ToolFile>);
      store.applyTool(patched.file, patched.etag);
      return this.deps.tools.get(ref);
    });
  }
}
