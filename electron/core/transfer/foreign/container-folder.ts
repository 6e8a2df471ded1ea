/**
 * A container-tool folder in the manifest.json + Dockerfile + runner layout becomes one
 * container tool (impl.build ".", the folder's files beside its tool.json).
 *
 * manifest.json (snake_case and camelCase keys both read):
 *   name, version, title?, description?, tags?, safety?
 *   parameters      [{name, type, description?, required?, default?, enum?, items?}] or {name: {…}}
 *                   → argSchema, `required` from the flags
 *   output.card     false | {enabled?, title?, accent_color?, background_color?} → card
 *   output.schema   → outputSchema
 *   sandbox         {memory?, network?: "none"|"bridge"|"host"|bool, writable? | read_only?, cpus?} → impl.sandbox;
 *                   no network named: bridge, Chalie's default; "host" becomes bridge, reported
 *   constraints     {timeout_seconds?, max_output_bytes?, max_calls_per_minute?} → impl.timeoutSeconds, limits
 *   config_schema   a JSON Schema or Chalie's flat map; entries marked secret (secret: true,
 *                   x-secret: true, writeOnly: true or format: "password") are stored app-wide
 *                   under a name of this tool's own (<SLUG>_<KEY>, UPPER_SNAKE_CASE) and reach the
 *                   container under the key as written: impl.settings {key: {"secret": NAME}}
 *   trigger         a cron pattern or interval → a schedule, switched off (./chalie-trigger.ts)
 * Everything else the manifest says (category, icon, documentation, a trigger's prompt, …) is
 * kept as written in tool.json's extensions.chalie and listed in the report.
 * Every file of the folder (manifest.json, Dockerfile, the runner, …) is kept as a build file.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { FieldIssue } from '../../../../shared/errors.js';
import { checkSlug } from '../../../../shared/slug.js';
import type { Card, ContainerImpl, Limits, Safety, ToolFile } from '../../../../shared/schemas.js';
import { CoreError, invalid } from '../../errors.js';
import { isTempName } from '../../fs/atomic.js';
import { foldKey, pathProblem } from '../../archive/layout.js';
import { type TransferLimits } from '../../archive/limits.js';
import { formatBytes } from '../../../../shared/format.js';
import type { FileSource } from '../validate.js';
import { argSchemaOf, bytesSource, clip, newToolFile } from './common.js';
import { slugify, versionOf } from '../../util/names.js';
import { configSecrets } from './chalie-config.js';
import { scheduleFromTrigger, TRIGGER_KEYS } from './chalie-trigger.js';

/** One file of a dropped or uploaded folder; `path` is relative, '/'-separated. */
export interface FolderFile {
  path: string;
  content: string;
  /** How `content` is encoded; utf8 by default. */
  encoding?: 'utf8' | 'base64';
  executable?: boolean;
}

export interface ContainerDraft {
  tool: ToolFile;
  files: FileSource[];
  secrets: string[];
  warnings: string[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const pick = (o: Json | undefined, ...keys: string[]): unknown => {
  for (const k of keys) if (o?.[k] !== undefined) return o[k];
  return undefined;
};

/** Checks names and sizes, decodes, and drops a single wrapping folder (a dropped folder keeps its own name). */
function normaliseFiles(files: FolderFile[], limits: TransferLimits): Map<string, { data: Buffer; executable: boolean }> {
  if (files.length > limits.maxToolFolderEntries)
    throw new CoreError('PAYLOAD_TOO_LARGE', `the folder holds ${files.length} files; at most ${limits.maxToolFolderEntries} are allowed`);
  let paths = files.map((f) => f.path.replace(/^\.\//, ''));
  const top = paths[0]?.split('/')[0];
  if (top && !paths.includes('manifest.json') && paths.every((p) => p.startsWith(`${top}/`))) paths = paths.map((p) => p.slice(top.length + 1));
  const out = new Map<string, { data: Buffer; executable: boolean }>();
  const folded = new Map<string, string>();
  let total = 0;
  files.forEach((f, i) => {
    const path = paths[i]!;
    const problem = pathProblem(path);
    if (problem) throw invalid([{ field: `files[${i}].path`, message: `'${path}' ${problem}` }]);
    const twin = folded.get(foldKey(path));
    if (twin !== undefined)
      throw invalid([{ field: `files[${i}].path`, message: `'${path}' collides with '${twin}' (same name up to letter case or Unicode form)` }]);
    folded.set(foldKey(path), path);
    const data = Buffer.from(f.content, f.encoding === 'base64' ? 'base64' : 'utf8');
    total += data.length;
    if (data.length > limits.maxFileBytes || total > limits.maxToolFolderBytes) {
      throw new CoreError('PAYLOAD_TOO_LARGE', `the folder is larger than ${formatBytes(limits.maxToolFolderBytes)} (at '${path}')`);
    }
    out.set(path, { data, executable: f.executable === true });
  });
  return out;
}

function cardOf(output: Json | undefined): Card {
  const raw = output?.['card'];
  if (raw === false) return { enabled: false };
  const c = obj(raw);
  if (!c) return { enabled: true };
  const card: Card = { enabled: c['enabled'] !== false };
  const title = pick(c, 'title');
  const accent = pick(c, 'accent_color', 'accentColor', 'color');
  const background = pick(c, 'background_color', 'backgroundColor');
  if (typeof title === 'string') card.title = clip(title, 200);
  if (typeof accent === 'string') card.accentColor = accent;
  if (typeof background === 'string') card.backgroundColor = background;
  return card;
}

/** Chalie runs a tool on Docker's bridge network unless its manifest says otherwise. */
function sandboxOf(raw: Json | undefined, issues: FieldIssue[], warnings: string[]): NonNullable<ContainerImpl['sandbox']> {
  const sandbox: NonNullable<ContainerImpl['sandbox']> = {};
  if (!raw) raw = {};
  const memory = pick(raw, 'memory', 'memory_mb', 'memoryMb');
  if (typeof memory === 'number' || typeof memory === 'string') sandbox.memory = memory;
  const network = pick(raw, 'network');
  if (network === undefined) {
    sandbox.network = 'bridge';
    warnings.push(
      'the manifest names no network, so the tool keeps Chalie\'s default, bridge (it can reach the internet); set impl.sandbox.network to "none" if it needs none',
    );
  } else if (network === true || network === 'bridge') sandbox.network = 'bridge';
  else if (network === false || network === 'none') sandbox.network = 'none';
  else if (network === 'host') {
    sandbox.network = 'bridge';
    warnings.push(
      'the manifest asks for the "host" network, which Toolwright never gives a tool (it would reach every service of this machine); it runs on bridge: it reaches the internet, not this machine\'s local ports',
    );
  } else issues.push({ field: 'manifest.json: sandbox.network', message: `'${String(network)}' is not one of "none", "bridge", "host"` });
  const writable = pick(raw, 'writable');
  const readOnly = pick(raw, 'read_only', 'readOnly', 'readonly');
  if (typeof writable === 'boolean') sandbox.writable = writable;
  else if (typeof readOnly === 'boolean') sandbox.writable = !readOnly;
  const cpus = pick(raw, 'cpus');
  if (typeof cpus === 'number') sandbox.cpus = cpus;
  return sandbox;
}

/** What the manifest's known fields and sub-fields are; everything else goes to extensions.chalie. */
const KNOWN_TOP = [
  'name',
  'version',
  'title',
  'description',
  'tags',
  'safety',
  'parameters',
  'params',
  'output',
  'sandbox',
  'constraints',
  'config_schema',
  'configSchema',
  'trigger',
  'schedule',
  'returns',
  'output_schema',
  'outputSchema',
];
const KNOWN_OUTPUT = ['card', 'schema'];
const KNOWN_CARD = ['enabled', 'title', 'accent_color', 'accentColor', 'color', 'background_color', 'backgroundColor'];
const KNOWN_SANDBOX = ['memory', 'memory_mb', 'memoryMb', 'network', 'writable', 'read_only', 'readOnly', 'readonly', 'cpus'];
const KNOWN_CONSTRAINTS = [
  'timeout_seconds',
  'timeoutSeconds',
  'timeout',
  'max_output_bytes',
  'maxOutputBytes',
  'max_calls_per_minute',
  'maxCallsPerMinute',
  'rate_limit_per_minute',
];

function unmapped(o: Json | undefined, known: string[]): Json {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([k]) => !known.includes(k)));
}

/** The manifest's fields Toolwright has no use for yet, as written, and their dotted names for the report. */
function manifestExtensions(manifest: Json, trigger: unknown, triggerKnown: readonly string[]): { kept: Json; names: string[] } {
  const kept: Json = unmapped(manifest, KNOWN_TOP);
  const names = Object.keys(kept);
  const nest = (path: string[], extra: Json) => {
    if (!Object.keys(extra).length) return;
    let at = kept;
    for (const key of path) at = (at[key] = obj(at[key]) ?? {}) as Json;
    Object.assign(at, extra);
    names.push(...Object.keys(extra).map((k) => [...path, k].join('.')));
  };
  const output = obj(manifest['output']);
  nest(['output'], unmapped(output, KNOWN_OUTPUT));
  nest(['output', 'card'], unmapped(obj(output?.['card']), KNOWN_CARD));
  nest(['sandbox'], unmapped(obj(manifest['sandbox']), KNOWN_SANDBOX));
  nest(['constraints'], unmapped(obj(manifest['constraints']), KNOWN_CONSTRAINTS));
  nest(['trigger'], unmapped(obj(trigger), [...triggerKnown]));
  return { kept, names: names.sort() };
}

/** Files a tool folder never takes: .env files, Python caches. */
const LEFT_BEHIND = [/(^|\/)\.env(\.[^/]*)?$/, /(^|\/)__pycache__\//, /\.py[co]$/];

/** `returns`: a JSON Schema, or a flat map {field: {type, description}} of the reply's fields. */
function returnsSchema(returns: unknown): Json | undefined {
  const r = obj(returns);
  if (!r) return undefined;
  if (typeof r['type'] === 'string' || obj(r['properties'])) return r;
  const properties: Json = {};
  for (const [k, v] of Object.entries(r)) {
    const o = obj(v);
    properties[k] = o
      ? Object.fromEntries(Object.entries(o).filter(([key]) => ['type', 'description', 'items', 'enum'].includes(key)))
      : { description: String(v) };
  }
  return { type: 'object', properties };
}

export function containerToolFromFiles(input: FolderFile[], ctx: { bundleID: string; now: string; limits: TransferLimits }): ContainerDraft {
  const files = normaliseFiles(input, ctx.limits);
  // Committed secrets and build litter do not travel into the tool folder (and every export of it).
  const skipped = [...files.keys()].filter((p) => LEFT_BEHIND.some((re) => re.test(p)));
  for (const p of skipped) files.delete(p);
  const manifestFile = files.get('manifest.json');
  if (!manifestFile) throw invalid([{ field: 'files', message: 'the folder has no manifest.json at its top level' }]);
  if (!files.has('Dockerfile'))
    throw invalid([{ field: 'files', message: 'the folder has no Dockerfile at its top level; a container tool is built from it' }]);
  let manifest: Json;
  try {
    const parsed: unknown = JSON.parse(manifestFile.data.toString('utf8').replace(/^\uFEFF/, ''));
    if (!obj(parsed)) throw new Error('it is not a JSON object');
    manifest = parsed as Json;
  } catch (e) {
    throw invalid([{ field: 'manifest.json', message: `is not a valid JSON object: ${(e as Error).message}` }]);
  }
  const issues: FieldIssue[] = [];
  const warnings: string[] = [];
  if (skipped.length) warnings.push(`left out of the tool folder: ${skipped.sort().join(', ')} (.env files may hold real credentials; caches are rebuilt)`);
  const trigger = pick(manifest, 'trigger', 'schedule');
  const name = typeof manifest['name'] === 'string' ? manifest['name'] : '';
  if (!name) issues.push({ field: 'manifest.json: name', message: 'is required' });
  const slug = slugify(name);
  const version = versionOf(manifest['version']);
  if (manifest['version'] !== undefined && version !== String(manifest['version']).trim().normalize('NFC')) {
    warnings.push(`version '${String(manifest['version'])}' is not a valid version label; it was imported as ${version}`);
  }
  const args = argSchemaOf(pick(manifest, 'parameters', 'params'), 'manifest.json: parameters');
  issues.push(...args.issues);
  const output = obj(manifest['output']);
  const constraints = obj(manifest['constraints']) ?? {};
  const impl: ContainerImpl = { build: '.', sandbox: sandboxOf(obj(manifest['sandbox']), issues, warnings) };
  const timeout = pick(constraints, 'timeout_seconds', 'timeoutSeconds', 'timeout');
  if (typeof timeout === 'number') impl.timeoutSeconds = timeout;
  else if (timeout !== undefined) issues.push({ field: 'manifest.json: constraints.timeout_seconds', message: 'must be a number of seconds' });
  const { secrets, settings, named, schema: settingsSchema } = configSecrets(pick(manifest, 'config_schema', 'configSchema'), slug);
  if (secrets.length) impl.secrets = secrets;
  if (Object.keys(settings).length) impl.settings = settings as ContainerImpl['settings'];
  if (settingsSchema) impl.settingsSchema = settingsSchema;
  if (named.length) {
    warnings.push(
      `its secrets are stored app-wide under names of this tool's own, so another tool's key of the same name stays apart: ${named.map((n) => n.replace(' → ', ' is stored as the secret ')).join('; ')}; the container still reads each under its config_schema key`,
    );
  }
  const limits: Limits = {};
  const maxOut = pick(constraints, 'max_output_bytes', 'maxOutputBytes');
  const perMinute = pick(constraints, 'max_calls_per_minute', 'maxCallsPerMinute', 'rate_limit_per_minute');
  if (typeof maxOut === 'number') limits.maxOutputBytes = maxOut;
  if (typeof perMinute === 'number') limits.maxCallsPerMinute = perMinute;
  if (files.has('tool.json')) {
    files.delete('tool.json');
    warnings.push('the folder held a tool.json; it was replaced by the one made from manifest.json');
  }
  if (issues.length) throw invalid(issues);

  const outputSchema = obj(output?.['schema']) ?? returnsSchema(pick(manifest, 'returns', 'output_schema', 'outputSchema'));
  const fromTrigger = trigger === undefined ? undefined : scheduleFromTrigger(trigger, args.schema);
  if (fromTrigger) warnings.push(fromTrigger.note);
  const extensions = manifestExtensions(manifest, trigger, TRIGGER_KEYS);
  if (extensions.names.length) {
    warnings.push(
      `kept in tool.json's extensions.chalie, as written (Toolwright has no use for them yet; they are saved and exported with the tool): ${extensions.names.join(', ')}`,
    );
  }
  const safety = manifest['safety'];
  const tags = Array.isArray(manifest['tags'])
    ? manifest['tags'].filter((t): t is string => typeof t === 'string' && t.length > 0 && t.length <= 64).slice(0, 64)
    : [];
  const tool = newToolFile(
    {
      slug,
      version,
      type: 'container',
      impl,
      displayName: typeof manifest['title'] === 'string' ? manifest['title'] : name,
      description: typeof manifest['description'] === 'string' ? manifest['description'] : '',
      argSchema: args.schema,
      card: cardOf(output),
      limits,
      tags,
      ...(fromTrigger?.schedule ? { schedules: [fromTrigger.schedule] } : {}),
      ...(outputSchema ? { outputSchema } : {}),
      ...(safety === 'readOnly' || safety === 'sideEffecting' || safety === 'privileged' ? { safety: safety as Safety } : {}),
      ...(extensions.names.length ? { extensions: { chalie: extensions.kept } } : {}),
    },
    ctx.bundleID,
    ctx.now,
  );
  if (!checkSlug(tool.slug).ok) throw invalid([{ field: 'manifest.json: name', message: `'${name}' gives no usable slug` }]);
  const sources = [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rel, f]) => bytesSource(rel, f.data, f.executable));
  return { tool, files: sources, secrets, warnings };
}

/** Reads a folder on this machine (never following links) into FolderFiles. */
export async function readFolderFiles(folder: string, limits: TransferLimits): Promise<FolderFile[]> {
  const out: FolderFile[] = [];
  let total = 0;
  const walk = async (rel: string, depth: number): Promise<void> => {
    if (depth > limits.maxDepth) throw invalid([{ field: 'folder', message: `folders are nested deeper than ${limits.maxDepth}` }]);
    for (const d of await fsp.readdir(join(folder, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (d.isSymbolicLink() || isTempName(d.name) || d.name === '.git' || d.name === '.DS_Store') continue;
      if (d.isDirectory()) await walk(path, depth + 1);
      else if (d.isFile()) {
        const abs = join(folder, path);
        const st = await fsp.lstat(abs);
        total += st.size;
        if (total > limits.maxToolFolderBytes || out.length >= limits.maxToolFolderEntries) {
          throw new CoreError(
            'PAYLOAD_TOO_LARGE',
            `${folder} is larger than a tool folder may be (${formatBytes(limits.maxToolFolderBytes)}, ${limits.maxToolFolderEntries} files)`,
          );
        }
        out.push({ path, content: (await fsp.readFile(abs)).toString('base64'), encoding: 'base64', executable: (st.mode & 0o111) !== 0 });
      }
    }
  };
  await walk('', 0);
  return out;
}
