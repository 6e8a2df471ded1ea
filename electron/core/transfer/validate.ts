/**
 * Turns bundle.json / tool.json values from an archive (or from a foreign format) into
 * validated drafts, with every rule a create through the API would apply: the schemas, slug
 * and version rules (NFC), UUIDv7s, folder/ID agreement, impl rules by type, argSchema and
 * outputSchema that compile, http templates and placeholders.
 *
 * One rule is softened on purpose: an http tool whose host is not in config.allowedHosts is
 * imported, and its host is reported in `hostsToAllow` for the user to confirm. Bundles travel
 * between machines with different allow-lists, the http runner refuses such calls anyway, and
 * blocking the whole import over it would force people to edit config before they can even
 * look at what they received.
 */
import type { Readable } from 'node:stream';
import type { FieldIssue } from '../../../shared/errors.js';
import type { ToolInput } from '../../../shared/operations.js';
import { isHostAllowed } from '../../../shared/net/hosts.js';
import { toolKey } from '../../../shared/slug.js';
import type { BundleFile, Config, ToolFile } from '../../../shared/schemas.js';
import { CoreError, invalid } from '../errors.js';
import { parseBundle, parseTool } from '../store/loader.js';
import { prepareTool } from '../tool-types/prepare.js';
import { toolTypeModule } from '../tool-types/registry.js';

/** A build file beside tool.json: where it goes inside the tool folder and how to get its bytes. */
export interface FileSource {
  rel: string;
  executable: boolean;
  open(): Promise<Readable>;
}

export interface ToolDraft {
  file: ToolFile;
  files: FileSource[];
  /** Where it came from, for messages: an archive path or a foreign document's name. */
  origin: string;
}

export interface BundleDraft {
  file: BundleFile;
  tools: ToolDraft[];
  origin: string;
}

export interface RawTool {
  origin: string;
  /** The folder name the archive put it in. */
  toolID: string;
  value: unknown;
  files: FileSource[];
}

export interface RawBundle {
  origin: string;
  bundleID: string;
  value: unknown;
  tools: RawTool[];
}

export interface Validated {
  bundles: BundleDraft[];
  /** Hosts http tools call that config.allowedHosts does not allow yet, sorted. */
  hostsToAllow: string[];
  warnings: string[];
}

const MAX_ISSUES = 50;

/** The literal hosts a tool calls, as its type knows them (an http tool: URL template and OAuth token URL). */
export function toolHosts(file: Pick<ToolFile, 'type' | 'impl'>): string[] {
  return toolTypeModule(file.type).hostsCalled?.(file.impl) ?? [];
}

/**
 * Runs the create rules of tool-types/prepare.ts on a complete tool file. Issues come back prefixed
 * with `origin`; hosts the config does not allow are not issues but are returned.
 */
export function checkToolRules(file: ToolFile, config: Config, origin: string): { issues: FieldIssue[]; hosts: string[] } {
  const hosts = toolHosts(file);
  const lenient: Config = { ...config, allowedHosts: [...config.allowedHosts, ...hosts] };
  try {
    prepareTool(file as unknown as ToolInput, {
      bundleID: file.bundleID,
      slug: file.slug,
      version: file.version,
      now: file.modifiedAt,
      config: lenient,
      existing: file,
    });
  } catch (e) {
    if (e instanceof CoreError && e.code === 'INVALID_INPUT') {
      const issues = (e.details?.issues ?? [{ field: '', message: e.message }]).map((i) => ({ field: `${origin}: ${i.field}`, message: i.message }));
      return { issues, hosts: [] };
    }
    throw e;
  }
  return { issues: [], hosts: hosts.filter((h) => !isHostAllowed(h, config.allowedHosts)) };
}

/** What every imported file must be on this machine: a user bundle or tool, never a built-in. */
function asUserFile<T extends { isBuiltIn: boolean }>(file: T): T {
  return file.isBuiltIn ? { ...file, isBuiltIn: false } : file;
}

/**
 * Imported schedules arrive switched off and without their approval: a tool from elsewhere
 * starts running on its own only once someone here has looked at it and switched it on.
 */
export function schedulesSwitchedOff(file: ToolFile): ToolFile {
  if (!file.schedules?.length) return file;
  return { ...file, schedules: file.schedules.map(({ approval: _approval, ...s }) => ({ ...s, isEnabled: false })) };
}

/** Validates everything; throws INVALID_INPUT listing every problem found (up to 50). */
export function validateBundles(raw: RawBundle[], config: Config): Validated {
  const issues: FieldIssue[] = [];
  const hosts = new Set<string>();
  const warnings: string[] = [];
  const toolOwners = new Map<string, string>();
  const bundles: BundleDraft[] = [];
  const switchedOff: string[] = [];

  for (const rb of raw) {
    const parsed = parseBundle(rb.value, rb.origin, rb.bundleID);
    if (parsed.problem) {
      issues.push({ field: rb.origin, message: parsed.problem.reason });
      continue;
    }
    const draft: BundleDraft = { file: asUserFile(parsed.file!), tools: [], origin: rb.origin };
    const pairs = new Map<string, string>();
    for (const rt of rb.tools) {
      const pt = parseTool(rt.value, rt.origin, rb.bundleID, rt.toolID);
      if (pt.problem) {
        issues.push({ field: rt.origin, message: pt.problem.reason });
        continue;
      }
      const file = schedulesSwitchedOff(asUserFile(pt.file!));
      if (pt.file!.schedules?.some((sc) => sc.isEnabled)) switchedOff.push(`${file.slug} ${file.version}`);
      const rules = checkToolRules(file, config, rt.origin);
      issues.push(...rules.issues);
      for (const h of rules.hosts) hosts.add(h);
      const key = toolKey(file.slug, file.version);
      const twin = pairs.get(key);
      if (twin) issues.push({ field: rt.origin, message: `<${file.slug},${file.version}> is also used by ${twin}; a bundle holds each slug and version once` });
      pairs.set(key, rt.origin);
      const owner = toolOwners.get(file.toolID);
      if (owner) issues.push({ field: rt.origin, message: `toolID ${file.toolID} is also used by ${owner}; tool IDs are unique` });
      toolOwners.set(file.toolID, rt.origin);
      warnings.push(...(toolTypeModule(file.type).importWarnings?.(file, rt.files) ?? []));
      draft.tools.push({ file, files: rt.files, origin: rt.origin });
    }
    bundles.push(draft);
  }
  if (issues.length) {
    const shown = issues.slice(0, MAX_ISSUES);
    const first = shown[0]!;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    throw invalid(shown, `The import was refused, nothing was written: ${first.field} ${first.message}${more}.`);
  }
  if (switchedOff.length) {
    warnings.push(
      `schedules arrive switched off: ${switchedOff.slice(0, 5).join(', ')}${switchedOff.length > 5 ? `, and ${switchedOff.length - 5} more` : ''} had some on; check them and switch them on in the Schedules screen`,
    );
  }
  return { bundles, hostsToAllow: [...hosts].sort(), warnings };
}
