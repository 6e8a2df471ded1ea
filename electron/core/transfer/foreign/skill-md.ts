/**
 * A SKILL.md with YAML front matter listing tools becomes a new bundle.
 *
 *   ---
 *   name: weather-skills                 bundle slug (made into one) and display name
 *   description: …                       bundle description (else the first paragraph of the body)
 *   version: v1                          default version of the tools
 *   tools:
 *     - name: current-weather
 *       description: …
 *       parameters: {city: {type: string, required: true}}      (or a list, as in manifest.json)
 *       http:                            → an http tool
 *         method: GET
 *         url: https://api.example.com/weather?q=${city}&key=${env:WEATHER_KEY}
 *         headers: {Accept: application/json}
 *         body: '{"q": "${city}"}'
 *         extract: $.current             → extractExpr
 *         timeout_ms: 10000
 *     - name: word-count
 *       parameters: {text: {type: string, required: true}}
 *       script:                          → a container tool running the script in a minimal image
 *   (A3S Box's form is read too: `backend: {type: http|script|binary, …}` with `parameters` as a
 *   JSON Schema, `body_template`, `interpreter` + `script` (+ `interpreter_args`), and
 *   `path` + `args_template` for a binary, run in an image that has the program (one from
 *   Debian's packages; a program from the host is refused with the reason); scripts get their
 *   arguments as TOOL_ARGS (JSON) and TOOL_ARG_<NAME>. Without a timeout, A3S's defaults hold:
 *   http 30 s, script and binary 60 s.)
 *         runtime: sh                    sh (default) | bash | zsh | python | node
 *         source: |
 *           printf '%s' "${text}" | wc -w
 *         timeout_seconds: 10
 *         network: none                  none (default) | bridge
 *   ---
 *
 * Placeholders: `${arg}` names a parameter; `${env:VAR}` names an app-scoped secret (its name
 * made UPPER_SNAKE_CASE). In http templates both become Toolwright placeholders; in sh scripts
 * they become ordinary shell expansions of the environment variables the wrapper exports. In
 * python and node scripts, arguments and secrets are read from the environment.
 */
// yaml (eemeli/yaml): YAML 1.2, no dependencies, typed; aliases are capped against billion-laughs documents.
import { parse as parseYaml } from 'yaml';
import type { Config, HttpImpl, ContainerImpl } from '../../../../shared/schemas.js';
import type { ImportReport } from '../../../../shared/types.js';
import { CoreError, invalid } from '../../errors.js';
import type { TransferLimits } from '../../archive/limits.js';
import type { BundleDraft, ToolDraft } from '../validate.js';
import { argSchemaOf, clip, newBundleFile, newToolFile } from './common.js';
import { secretName, slugify, uniqueName, versionOf } from '../../util/names.js';
import { ENV_NAME, PROGRAM_NAME, RESERVED_ENV, scriptToolFiles, type BinaryProgram, type ScriptImages, type ScriptRuntime } from './script-image.js';

/** A3S's own defaults when a backend names no timeout. */
const A3S_HTTP_TIMEOUT_MS = 30_000;
const A3S_SCRIPT_TIMEOUT_SECONDS = 60;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const ENV_PLACEHOLDER = /\$\{\s*env:([^}]*)\}/g;

export interface SkillContext {
  now: string;
  limits: TransferLimits;
  images: Partial<ScriptImages>;
  config: Config;
}

export function splitFrontMatter(text: string): { yaml: string; body: string } {
  const t = text.replace(/^\uFEFF/, '');
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(t);
  if (!m) throw invalid([{ field: 'SKILL.md', message: 'has no YAML front matter: it must start with a line "---", the YAML, and a closing "---"' }]);
  return { yaml: m[1]!, body: t.slice(m[0].length) };
}

export function parseYamlDocument(text: string, what: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: true });
  } catch (e) {
    throw invalid([{ field: what, message: `is not valid YAML: ${(e as Error).message.split('\n')[0]}` }]);
  }
}

function firstParagraph(markdown: string): string {
  return (
    markdown
      .split(/\r?\n\s*\r?\n/)
      .map((p) => p.trim())
      .find((p) => p && !p.startsWith('#')) ?? ''
  );
}

/** `${env:VAR}` → `${VAR}` (made a valid secret name); collects the names. */
function rewriteEnv(text: string, secrets: Set<string>): string {
  return text.replace(ENV_PLACEHOLDER, (_m, raw: string) => {
    const name = secretName(raw.trim());
    secrets.add(name);
    return `\${${name}}`;
  });
}

/** The tool.json of one A3S tool definition: its name and words as written, the runner chosen. */
function skillToolFile(
  def: Json,
  base: { slug: string; version: string },
  runner: { type: 'http'; impl: HttpImpl } | { type: 'container'; impl: ContainerImpl },
  argSchema: Record<string, unknown>,
  bundleID: string,
  ctx: SkillContext,
): ToolDraft['file'] {
  const displayName = str(def['title']) ?? str(def['name']) ?? base.slug;
  return newToolFile(
    { slug: base.slug, version: base.version, ...runner, displayName, description: str(def['description']) ?? '', argSchema },
    bundleID,
    ctx.now,
  );
}

function httpTool(def: Json, http: Json, base: { slug: string; version: string; origin: string }, bundleID: string, ctx: SkillContext): ToolDraft {
  const args = argSchemaOf(def['parameters'], `${base.origin}.parameters`);
  if (args.issues.length) throw invalid(args.issues);
  const secrets = new Set<string>();
  const url = str(http['url']) ?? str(http['urlTemplate']);
  if (!url) throw invalid([{ field: `${base.origin}.http.url`, message: 'is required' }]);
  const impl: HttpImpl = { method: (str(http['method']) ?? 'GET').toUpperCase() as HttpImpl['method'], urlTemplate: rewriteEnv(url, secrets) };
  const headers = obj(http['headers']);
  if (headers) impl.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, rewriteEnv(String(v), secrets)]));
  const body = http['body'] ?? http['bodyTemplate'] ?? http['body_template'];
  if (body !== undefined) impl.bodyTemplate = rewriteEnv(typeof body === 'string' ? body : JSON.stringify(body), secrets);
  // Parameters the templates do not mention are sent the way A3S sends them: in the query of a
  // GET (optional ones only when given), as a JSON object body otherwise.
  const mentioned = new Set(
    [impl.urlTemplate, impl.bodyTemplate ?? '', ...Object.values(impl.headers ?? {})].flatMap((t) =>
      [...t.matchAll(/\$\{\s*([^}\s]+)\s*\}/g)].map((m) => m[1]!),
    ),
  );
  const rest = args.names.filter((n) => !mentioned.has(n));
  if (rest.length && ['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(impl.method)) {
    const pairs = rest.map((n) => `${encodeURIComponent(n)}=\${${n}}`).join('&');
    impl.urlTemplate += (impl.urlTemplate.includes('?') ? '&' : '?') + pairs;
  } else if (rest.length && impl.bodyTemplate === undefined) {
    impl.bodyTemplate = `{${rest.map((n) => `${JSON.stringify(n)}: \${${n}}`).join(', ')}}`;
    (impl.headers ??= {})['Content-Type'] ??= 'application/json';
  }
  const extract = str(http['extract']) ?? str(http['extractExpr']);
  if (extract) impl.extractExpr = extract;
  const timeout = http['timeout_ms'] ?? http['timeoutMs'];
  impl.timeoutMs = typeof timeout === 'number' ? timeout : A3S_HTTP_TIMEOUT_MS;
  const encoding = str(http['response']) ?? str(http['responseEncoding']);
  if (encoding === 'json' || encoding === 'text') impl.responseEncoding = encoding;
  return { file: skillToolFile(def, base, { type: 'http', impl }, args.schema, bundleID, ctx), files: [], origin: base.origin };
}

function scriptTool(def: Json, script: Json, base: { slug: string; version: string; origin: string }, bundleID: string, ctx: SkillContext): ToolDraft {
  const args = argSchemaOf(def['parameters'], `${base.origin}.parameters`);
  if (args.issues.length) throw invalid(args.issues);
  for (const name of args.names) {
    if (!ENV_NAME.test(name) || RESERVED_ENV.has(name)) {
      throw invalid([
        {
          field: `${base.origin}.parameters.${name}`,
          message: `a script receives arguments as environment variables, so '${name}' must be a plain name (letters, digits, _) and not one of PATH, HOME, IFS, …`,
        },
      ]);
    }
  }
  const runtime = (str(script['runtime']) ?? str(script['language']) ?? str(script['interpreter']) ?? 'sh').toLowerCase().replace(/^.*\//, '');
  const rt: ScriptRuntime | undefined =
    runtime === 'sh' || runtime === 'shell'
      ? 'sh'
      : runtime === 'bash' || runtime === 'zsh'
        ? runtime
        : runtime === 'python' || runtime === 'python3'
          ? 'python'
          : runtime === 'node' || runtime === 'javascript' || runtime === 'js'
            ? 'node'
            : undefined;
  if (!rt) throw invalid([{ field: `${base.origin}.script.runtime`, message: `'${runtime}' is not one of sh, bash, zsh, python, node` }]);
  const interpreterArgs = script['interpreter_args'] ?? script['interpreterArgs'];
  const extraArgs = Array.isArray(interpreterArgs)
    ? interpreterArgs.map(String)
    : typeof interpreterArgs === 'string'
      ? interpreterArgs.split(/\s+/).filter(Boolean)
      : [];
  const badArg = extraArgs.find((a) => !/^[A-Za-z0-9_.=:/+,-]+$/.test(a));
  if (badArg !== undefined)
    throw invalid([
      { field: `${base.origin}.interpreter_args`, message: `'${clip(badArg, 40)}' is not a plain interpreter flag (letters, digits and _.=:/+,- only)` },
    ]);
  const source = str(script['source']) ?? str(script['script']) ?? str(script['run']) ?? str(script['code']);
  if (!source?.trim()) throw invalid([{ field: `${base.origin}.script.source`, message: 'is required: the script to run' }]);
  const secrets = new Set<string>();
  // In a shell, ${env:VAR} is a syntax error and ${VAR} is exactly the variable the wrapper exports.
  const shell = rt === 'sh' || rt === 'bash' || rt === 'zsh';
  const text = shell ? rewriteEnv(source, secrets) : source.replace(ENV_PLACEHOLDER, (m, raw: string) => (secrets.add(secretName(raw.trim())), m));
  const listed: unknown[] = Array.isArray(script['secrets']) ? script['secrets'] : [script['secrets']];
  for (const m of listed) if (typeof m === 'string') secrets.add(secretName(m));
  const impl: ContainerImpl = { build: '.' };
  const network = script['network'];
  impl.sandbox = { network: network === 'bridge' || network === true ? 'bridge' : 'none' };
  const timeout = script['timeout_seconds'] ?? script['timeoutSeconds'];
  impl.timeoutSeconds = typeof timeout === 'number' ? timeout : A3S_SCRIPT_TIMEOUT_SECONDS;
  if (secrets.size) impl.secrets = [...secrets].sort();
  const file = skillToolFile(def, base, { type: 'container', impl }, args.schema, bundleID, ctx);
  return { file, files: scriptToolFiles(rt, text, ctx.images, extraArgs), origin: base.origin };
}

/** Where Debian's packages put programs: a binary backend's program there (or a bare name) is installed when the image lacks it. */
const SYSTEM_DIRS = ['/bin/', '/usr/bin/', '/sbin/', '/usr/sbin/'];

/** A binary backend given by `url`: fetched once at import (./binary-download.ts) into the tool's folder as `bin/<fileName>`. */
export interface BinaryFetch {
  url: URL;
  /** The checksum the manifest gives (lowercase hex), verified against the download. */
  sha256?: string;
  fileName: string;
  origin: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The file name a downloaded program gets: the URL's last segment when it is a plain name, else "program". */
function fileNameOf(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  return /^[A-Za-z0-9._+-]{1,64}$/.test(last) && !/^\.+$/.test(last) ? last : 'program';
}

/**
 * An A3S binary backend `{path | url, args_template}` as a script tool: a generated sh script runs the
 * program with the template's words, each `${arg}` a quoted expansion of the variable the
 * wrapper exports (never pasted code), in an image that has the program: one from Debian's
 * packages (installed when missing), one the image must already provide at its absolute path
 * (the build fails saying so when it does not), or one downloaded from `url` at import.
 */
function binaryTool(
  def: Json,
  backend: Json,
  base: { slug: string; version: string; origin: string },
  bundleID: string,
  ctx: SkillContext,
): ToolDraft & { fetch?: BinaryFetch } {
  const field = `${base.origin}.backend`;
  const rawUrl = str(backend['url'])?.trim();
  let fetch: BinaryFetch | undefined;
  let program: string;
  let kind: BinaryProgram['kind'];
  if (rawUrl) {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw invalid([{ field: `${field}.url`, message: `'${clip(rawUrl, 120)}' is not a URL` }]);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw invalid([{ field: `${field}.url`, message: `${url.protocol}// is refused: a binary is downloaded over http or https only` }]);
    }
    const given = str(backend['sha256']) ?? str(backend['checksum']);
    const sha256 = given
      ?.trim()
      .toLowerCase()
      .replace(/^sha256:/, '');
    if (sha256 !== undefined && !SHA256_HEX.test(sha256)) {
      throw invalid([{ field: `${field}.sha256`, message: 'must be a sha256 checksum: 64 hexadecimal digits (optionally after "sha256:")' }]);
    }
    const fileName = fileNameOf(url);
    fetch = { url, fileName, origin: base.origin, ...(sha256 ? { sha256 } : {}) };
    program = `/tool/bin/${fileName}`;
    kind = 'bundled';
  } else {
    program = (str(backend['path']) ?? str(backend['program']) ?? str(backend['command']) ?? '').trim();
    if (!program) throw invalid([{ field: `${field}.path`, message: 'is required: the program to run (or url: where to download it)' }]);
    const bare = !program.includes('/');
    const dotted = program.split('/').some((part) => part === '.' || part === '..');
    if (!PROGRAM_NAME.test(program) || dotted || (!bare && !program.startsWith('/'))) {
      throw invalid([
        {
          field: `${field}.path`,
          message: `runs ${clip(program, 120)}, ${!bare && !program.startsWith('/') ? 'a program relative to the skill on the host' : dotted ? 'a path with . or .. segments' : 'not a plain program path'}, which no container image can have; give a bare name or an absolute path in the image (/usr/local/bin/my-tool), or url: to download the program at import`,
        },
      ]);
    }
    kind = bare || SYSTEM_DIRS.some((d) => program.startsWith(d)) ? 'system' : 'image';
  }
  const template = backend['args_template'] ?? backend['argsTemplate'] ?? backend['args'] ?? [];
  const words = Array.isArray(template) ? template.map(String) : String(template).split(/\s+/).filter(Boolean);
  const secrets = new Set<string>();
  // Inside double quotes only $, `, \ and " mean something: escape them, then let ${name} expand.
  const quoted = words.map((w) => `"${rewriteEnv(w, secrets).replace(/[`\\"]|\$(?!\{[A-Za-z_][A-Za-z0-9_]*\})/g, (c) => `\\${c}`)}"`);
  const script = `exec ${program} ${quoted.join(' ')}`.trimEnd();
  const draft = scriptTool(def, { script, secrets: [...secrets] }, base, bundleID, ctx);
  const files = scriptToolFiles('binary', `${script}\n`, ctx.images, [], { path: program, kind });
  return { ...draft, files, ...(fetch ? { fetch } : {}) };
}

export function bundleFromSkill(
  text: string,
  ctx: SkillContext,
): { draft: BundleDraft; warnings: string[]; items: NonNullable<ImportReport['items']>; fetches: Map<ToolDraft, BinaryFetch> } {
  if (Buffer.byteLength(text, 'utf8') > ctx.limits.maxDocumentBytes) throw new CoreError('PAYLOAD_TOO_LARGE', 'the SKILL.md is too large');
  const { yaml, body } = splitFrontMatter(text);
  const front = obj(parseYamlDocument(yaml, 'SKILL.md front matter'));
  if (!front) throw invalid([{ field: 'SKILL.md front matter', message: 'must be a YAML mapping (name: …, tools: […])' }]);
  const name = str(front['name']) ?? '';
  if (!name.trim()) throw invalid([{ field: 'SKILL.md front matter: name', message: 'is required' }]);
  const tools = front['tools'];
  if (!Array.isArray(tools) || tools.length === 0)
    throw invalid([{ field: 'SKILL.md front matter: tools', message: 'must list at least one tool with an http or script backend' }]);
  const bundle = newBundleFile(slugify(name, 'skill'), name, str(front['description']) ?? firstParagraph(body), ctx.now);
  const defaultVersion = versionOf(front['version']);
  const taken = new Set<string>();
  const draft: BundleDraft = { file: bundle, tools: [], origin: 'SKILL.md' };
  const warnings: string[] = [];
  const items: NonNullable<ImportReport['items']> = [];
  const fetches = new Map<ToolDraft, BinaryFetch>();
  const skip = (origin: string, reason: string) => {
    warnings.push(`left out ${origin}: ${reason}`);
    items.push({ origin, status: 'skipped', reason });
  };
  tools.forEach((t, i) => {
    const def = obj(t);
    const label = `SKILL.md tools[${i}]`;
    if (!def) {
      skip(label, 'it is not a mapping');
      return;
    }
    const toolName = str(def['name']) ?? '';
    const origin = toolName ? `SKILL.md tool '${clip(toolName, 64)}'` : label;
    const backend = obj(def['backend']);
    const http = obj(def['http']) ?? (backend && (backend['type'] === 'http' ? backend : obj(backend['http'])));
    const script = obj(def['script']) ?? (backend && (backend['type'] === 'script' ? backend : obj(backend['script'])));
    if (!toolName) {
      skip(label, 'it has no name');
      return;
    }
    const binary = backend && backend['type'] === 'binary' ? backend : undefined;
    if (binary ? http || script : !http === !script) {
      warnings.push(`left out ${origin}: it needs exactly one backend, http, script or binary`);
      return;
    }
    const base = { slug: uniqueName(slugify(toolName), taken), version: versionOf(def['version'], defaultVersion), origin };
    try {
      if (binary) {
        const { fetch, ...tool } = binaryTool(def, binary, base, bundle.bundleID, ctx);
        draft.tools.push(tool);
        if (fetch) fetches.set(tool, fetch);
      } else draft.tools.push(http ? httpTool(def, http, base, bundle.bundleID, ctx) : scriptTool(def, script!, base, bundle.bundleID, ctx));
      items.push({ origin, status: 'imported', slug: base.slug, version: base.version });
    } catch (e) {
      if (!(e instanceof CoreError)) throw e;
      const issue = e.details?.issues?.[0];
      skip(origin, issue ? `${issue.field} ${issue.message}` : e.message);
    }
  });
  if (!draft.tools.length) throw invalid([{ field: 'SKILL.md front matter: tools', message: `no tool could be imported: ${warnings.join('; ')}` }]);
  return { draft, warnings, items, fetches };
}
