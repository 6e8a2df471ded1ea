/**
 * What every MCP configuration reader produces: one draft bundle per server, its source with
 * `${NAME}` placeholders where secrets go, and the secrets themselves (a value to store, or none:
 * the person must set it). Secret names are `<BUNDLE_SLUG>_<NAME>` in UPPER_SNAKE, so the
 * readers get each server's final slug before they name a secret.
 */
import type { BundleSource } from '../../../../../shared/upstream.js';
import { secretName, slugify } from '../../../util/names.js';
import { isPlainObject } from '../../../../../shared/plain-object.js';

export interface SecretDraft {
  name: string;
  /** Undefined: the file does not hold the value (a VS Code password input, an .mcpb sensitive field); the person sets it. */
  value?: string;
  description?: string;
}

export interface ServerDraft {
  name: string;
  slug: string;
  displayName: string;
  description: string;
  source: BundleSource;
  secrets: SecretDraft[];
  warnings: string[];
}

export interface SkippedServer {
  name: string;
  reason: string;
}

export interface ReadServers {
  format: 'mcpServers' | 'vscode' | 'registry' | 'mcpb';
  servers: ServerDraft[];
  skipped: SkippedServer[];
}

/** A reader's way to the slugs the store has not taken yet. */
export type SlugAllocator = (name: string) => string;

export const MAX_SERVERS = 1000;
const MAX_NAME_CHARS = 200;

/** A skip with its reason, thrown inside a reader for one server. */
export class ServerRefused extends Error {}

/** Why a server's name is refused, or undefined when it is fine. */
export function nameProblem(name: string): string | undefined {
  if (!name.trim()) return 'its name is empty';
  if ([...name].length > MAX_NAME_CHARS) return `its name is longer than ${MAX_NAME_CHARS} characters`;
  if (/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u.test(name)) return 'its name holds control characters; rename it in the file';
  if (/[/\\]/.test(name) || name === '.' || name === '..') return 'its name holds a path separator (/ or \\) or is a path; rename it in the file';
  return undefined;
}

/** Names whose values are secrets: `*_TOKEN`, `*_KEY`, `*SECRET*`, `*PASSWORD*`, `Authorization`, API keys. */
export function looksSecret(name: string): boolean {
  return /(^|[_-])(TOKEN|KEY|PAT)$|SECRET|PASSWORD|PASSWD|CREDENTIAL|^AUTHORIZATION$|^PROXY-AUTHORIZATION$|API[_-]?KEY|^COOKIE$/i.test(name);
}

/** Collects one server's secrets under `<SLUG>_<NAME>` and hands back their placeholders. */
export class SecretNames {
  readonly list: SecretDraft[] = [];

  constructor(private readonly slug: string) {}

  /** A placeholder this server's reader made already (a registry input, filled before the source is built). */
  isOwn(name: string): boolean {
    return this.list.some((s) => s.name === name);
  }

  nameFor(local: string): string {
    return secretName(`${this.slug}_${local}`);
  }

  /** A value the file holds, moved into the secrets store. */
  stored(local: string, value: string, description?: string): string {
    return this.add({ name: this.nameFor(local), value, ...(description ? { description } : {}) });
  }

  /** A secret the file does not hold: the person sets it. */
  needed(local: string, description?: string): string {
    return this.add({ name: this.nameFor(local), ...(description ? { description } : {}) });
  }

  private add(secret: SecretDraft): string {
    const same = this.list.find((s) => s.name === secret.name);
    if (same && same.value !== undefined && secret.value !== undefined && same.value !== secret.value) {
      throw new ServerRefused(`two different secret values would be stored as ${secret.name}`);
    }
    if (!same) this.list.push(secret);
    else if (same.value === undefined && secret.value !== undefined) same.value = secret.value;
    return `\${${secret.name}}`;
  }
}

/**
 * A value from the file made into a source value: a secret-looking name with a literal value
 * moves it to the secrets store; `${env:NAME}` or `${NAME}` in capitals (which other clients fill
 * from the environment) become secrets the person sets; other `${…}` variables (`${workspaceFolder}`)
 * cannot be filled here, so the server is refused saying which. `vars` fills what a format
 * defines itself (VS Code inputs, .mcpb user_config) first.
 */
export function sourceValue(
  key: string,
  value: string,
  names: SecretNames,
  options: { secret?: boolean; vars?: (name: string) => string | undefined } = {},
): string {
  if (/[\0]/.test(value)) throw new ServerRefused(`the value of ${key} holds a NUL character`);
  const filled = value.replace(/\$\{([^}]*)\}/g, (all, inner: string) => {
    if (names.isOwn(inner)) return all;
    const own = options.vars?.(inner);
    if (own !== undefined) return own;
    const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner)?.[1] ?? /^([A-Z_][A-Z0-9_]*)$/.exec(inner)?.[1];
    if (env) return names.needed(env, `the environment variable ${env} the file refers to`);
    throw new ServerRefused(`${key} uses the variable ${all}, which Toolwright cannot fill; replace it with its value in the file`);
  });
  if (filled !== value || value.includes('${') || !(options.secret ?? looksSecret(key)) || !value) return filled;
  return names.stored(key, value);
}

/** A stdio or http source from `{command,args,env,cwd}` / `{url,headers}` values, each passed through sourceValue. */
export function stdioSource(
  command: string,
  args: string[],
  env: Record<string, string>,
  names: SecretNames,
  vars?: (name: string) => string | undefined,
  cwd?: string,
): BundleSource {
  const options = vars ? { vars } : {};
  const source: BundleSource = {
    kind: 'mcp',
    transport: 'stdio',
    command: sourceValue('command', command, names, { ...options, secret: false }),
    args: args.map((a, i) => sourceValue(`argument ${i + 1}`, a, names, { ...options, secret: false })),
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, sourceValue(k, v, names, options)])),
  };
  if (cwd) source.cwd = sourceValue('cwd', cwd, names, { ...options, secret: false });
  return source;
}

export function httpSource(url: string, headers: Record<string, string>, names: SecretNames, vars?: (name: string) => string | undefined): BundleSource {
  const options = vars ? { vars } : {};
  return {
    kind: 'mcp',
    transport: 'http',
    url: sourceValue('url', url, names, { ...options, secret: false }),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, sourceValue(k, v, names, options)])),
  };
}

/** A slug base from a server's name: the last part of a registry name (`io.github.x/weather` → weather). */
export function slugBase(name: string): string {
  return slugify(name.split('/').pop() ?? name, 'server');
}

/** A map of strings (env, headers) or a refusal saying which field is wrong. */
export function stringMap(v: unknown, field: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw new ServerRefused(`${field} must be an object of names to strings`);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value === 'number' || typeof value === 'boolean') out[k] = String(value);
    else if (typeof value === 'string') out[k] = value;
    else throw new ServerRefused(`${field}.${k} must be a string`);
  }
  return out;
}

export function stringList(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ServerRefused(`${field} must be a list of strings`);
  return v.map((a, i) => {
    if (typeof a === 'string') return a;
    if (typeof a === 'number' || typeof a === 'boolean') return String(a);
    throw new ServerRefused(`${field}[${i}] must be a string`);
  });
}

/** Runs one server's reader: a ServerRefused becomes a skip with its reason. */
export function eachServer<T>(
  entries: [string, T][],
  allocate: SlugAllocator,
  read: (name: string, entry: T, names: SecretNames, slug: string) => Omit<ServerDraft, 'name' | 'slug' | 'secrets'> & { displayName?: string },
  /** Registry names are `namespace/name`: only the part after the last / is a name. */
  namespaced = false,
): { servers: ServerDraft[]; skipped: SkippedServer[] } {
  const servers: ServerDraft[] = [];
  const skipped: SkippedServer[] = [];
  for (const [name, entry] of entries) {
    const problem = namespaced
      ? (nameProblem(name.split('/').pop() ?? name) ?? (/\p{Cc}|\.\./u.test(name) ? 'its name holds control characters or ..' : undefined))
      : nameProblem(name);
    const shown = [...name.replace(/\p{Cc}/gu, '?')].slice(0, 200).join('');
    if (problem) {
      skipped.push({ name: shown, reason: problem });
      continue;
    }
    try {
      const slug = allocate(slugBase(name));
      const names = new SecretNames(slug);
      const draft = read(name, entry, names, slug);
      servers.push({ ...draft, name, slug, displayName: draft.displayName || name, secrets: names.list });
    } catch (e) {
      if (!(e instanceof ServerRefused)) throw e;
      skipped.push({ name: shown, reason: e.message });
    }
  }
  return { servers, skipped };
}
