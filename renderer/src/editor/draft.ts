/**
 * The tool editor's working copy. Text fields stay text while being typed (numbers, JSON) and
 * are converted once, on save; each type keeps its own impl so switching type and back loses
 * nothing. `localIssues` is what can be checked without the server, keyed like server issues.
 */
import { checkSlug, checkVersion } from '../../../shared/slug.js';
import type { ToolInput } from '../../../shared/operations.js';
import type { Safety, ToolType } from '../../../shared/schemas.js';
import type { ToolView, FunctionInfo } from '../../../shared/types.js';
import { findPlaceholders, isSecretName } from '../../../shared/template.js';
import { jsonProblems } from './JsonEditor.js';
import { argNames, checkArgSchema, checkJsonSchema } from './schemaChecks.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
export const HTTP_METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

export interface HttpDraft {
  method: HttpMethod;
  urlTemplate: string;
  headers: HeaderRow[];
  bodyTemplate: string;
  successCodes: string;
  timeoutMs: string;
  responseEncoding: 'json' | 'text';
  extractExpr: string;
  errorMode: 'fail' | 'empty';
  maxRetries: string;
  authType: 'none' | 'hmac' | 'oauth2ClientCredentials';
  hmacSecret: string;
  hmacAlgorithm: 'sha256' | 'sha512';
  hmacHeader: string;
  hmacTimestampHeader: string;
  hmacPrefix: string;
  oauthTokenUrl: string;
  oauthClientIdSecret: string;
  oauthClientSecretSecret: string;
  oauthScope: string;
  oauthAudience: string;
}

export interface ContainerDraft {
  source: 'image' | 'build';
  image: string;
  memory: string;
  network: 'none' | 'bridge';
  writable: boolean;
  cpus: string;
  timeoutSeconds: string;
}

export interface ToolDraft {
  slug: string;
  version: string;
  displayName: string;
  description: string;
  tags: string;
  type: ToolType;
  /** 'auto' lets the core derive it from the type and impl. */
  safety: Safety | 'auto';
  isEnabled: boolean;
  argSchemaText: string;
  outputSchemaText: string;
  http: HttpDraft;
  container: ContainerDraft;
  functionName: string;
  card: { enabled: boolean; title: string; accentColor: string; backgroundColor: string };
  maxCallsPerMinute: string;
  maxOutputBytes: string;
}

let headerKey = 1;
export const newHeaderRow = (name = '', value = ''): HeaderRow => ({ key: headerKey++, name, value });

const DEFAULT_ARG_SCHEMA = '{\n  "type": "object",\n  "properties": {},\n  "additionalProperties": false\n}';

export function emptyDraft(): ToolDraft {
  return {
    slug: '',
    version: 'v1',
    displayName: '',
    description: '',
    tags: '',
    type: 'http',
    safety: 'auto',
    isEnabled: true,
    argSchemaText: DEFAULT_ARG_SCHEMA,
    outputSchemaText: '{}',
    http: {
      method: 'GET',
      urlTemplate: 'https://',
      headers: [],
      bodyTemplate: '',
      successCodes: '',
      timeoutMs: '',
      responseEncoding: 'json',
      extractExpr: '',
      errorMode: 'fail',
      maxRetries: '',
      authType: 'none',
      hmacSecret: '',
      hmacAlgorithm: 'sha256',
      hmacHeader: '',
      hmacTimestampHeader: '',
      hmacPrefix: '',
      oauthTokenUrl: '',
      oauthClientIdSecret: '',
      oauthClientSecretSecret: '',
      oauthScope: '',
      oauthAudience: '',
    },
    container: { source: 'image', image: '', memory: '', network: 'none', writable: false, cpus: '', timeoutSeconds: '' },
    functionName: '',
    card: { enabled: false, title: '', accentColor: '#4a90d4', backgroundColor: 'rgba(74,144,212,0.10)' },
    maxCallsPerMinute: '',
    maxOutputBytes: '',
  };
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

export function draftFromTool(tool: ToolView): ToolDraft {
  const d = emptyDraft();
  const impl = tool.impl as Record<string, unknown>;
  d.slug = tool.slug;
  d.version = tool.version;
  d.displayName = tool.displayName;
  d.description = tool.description;
  d.tags = tool.tags.join(', ');
  d.type = tool.type;
  d.safety = tool.safety;
  d.isEnabled = tool.isEnabled;
  d.argSchemaText = JSON.stringify(tool.argSchema, null, 2);
  d.outputSchemaText = JSON.stringify(tool.outputSchema, null, 2);
  if (tool.type === 'http') {
    const auth = (impl['auth'] ?? undefined) as Record<string, unknown> | undefined;
    d.http = {
      ...d.http,
      method: (impl['method'] as HttpMethod) ?? 'GET',
      urlTemplate: str(impl['urlTemplate']),
      headers: Object.entries((impl['headers'] ?? {}) as Record<string, string>).map(([n, v]) => newHeaderRow(n, v)),
      bodyTemplate: str(impl['bodyTemplate']),
      successCodes: Array.isArray(impl['successCodes']) ? (impl['successCodes'] as number[]).join(', ') : '',
      timeoutMs: str(impl['timeoutMs']),
      responseEncoding: (impl['responseEncoding'] as 'json' | 'text') ?? 'json',
      extractExpr: str(impl['extractExpr']),
      errorMode: (impl['errorMode'] as 'fail' | 'empty') ?? 'fail',
      maxRetries: str(impl['maxRetries']),
      authType: (auth?.['type'] as HttpDraft['authType']) ?? 'none',
      hmacSecret: str(auth?.['secret']),
      hmacAlgorithm: (auth?.['algorithm'] as 'sha256' | 'sha512') ?? 'sha256',
      hmacHeader: str(auth?.['header']),
      hmacTimestampHeader: str(auth?.['timestampHeader']),
      hmacPrefix: str(auth?.['prefix']),
      oauthTokenUrl: str(auth?.['tokenUrl']),
      oauthClientIdSecret: str(auth?.['clientIdSecret']),
      oauthClientSecretSecret: str(auth?.['clientSecretSecret']),
      oauthScope: str(auth?.['scope']),
      oauthAudience: str(auth?.['audience']),
    };
  } else if (tool.type === 'container') {
    const sb = (impl['sandbox'] ?? {}) as Record<string, unknown>;
    d.container = {
      source: impl['build'] === '.' ? 'build' : 'image',
      image: str(impl['image']),
      memory: str(sb['memory']),
      network: (sb['network'] as 'none' | 'bridge') ?? 'none',
      writable: sb['writable'] === true,
      cpus: str(sb['cpus']),
      timeoutSeconds: str(impl['timeoutSeconds']),
    };
  } else {
    d.functionName = str(impl['function']);
  }
  d.card = {
    enabled: tool.card.enabled,
    title: tool.card.title ?? '',
    accentColor: tool.card.accentColor ?? '',
    backgroundColor: tool.card.backgroundColor ?? '',
  };
  d.maxCallsPerMinute = str(tool.limits.maxCallsPerMinute);
  d.maxOutputBytes = str(tool.limits.maxOutputBytes);
  return d;
}

/** Applies a registered function's schemas and safety to a draft (the function picker's "use" action). */
export function applyFunction(d: ToolDraft, fn: FunctionInfo): ToolDraft {
  return {
    ...d,
    functionName: fn.name,
    argSchemaText: JSON.stringify(fn.argSchema ?? {}, null, 2),
    outputSchemaText: JSON.stringify(fn.outputSchema ?? {}, null, 2),
    safety: fn.safety,
    description: d.description || fn.description,
  };
}

const optInt = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s.trim()));
const optStr = (s: string): string | undefined => (s.trim() === '' ? undefined : s);

function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function implOf(d: ToolDraft): Record<string, unknown> {
  if (d.type === 'function') return { function: d.functionName.trim() };
  if (d.type === 'container') {
    const c = d.container;
    const memory = c.memory.trim() === '' ? undefined : /^\d+$/.test(c.memory.trim()) ? Number(c.memory.trim()) : c.memory.trim();
    return compact({
      ...(c.source === 'image' ? { image: c.image.trim() } : { build: '.' }),
      sandbox: compact({ memory, network: c.network, writable: c.writable, cpus: optInt(c.cpus) }),
      timeoutSeconds: optInt(c.timeoutSeconds),
    });
  }
  const h = d.http;
  let auth: Record<string, unknown> | undefined;
  if (h.authType === 'hmac') {
    auth = compact({
      type: 'hmac',
      secret: h.hmacSecret.trim(),
      algorithm: h.hmacAlgorithm,
      header: optStr(h.hmacHeader),
      timestampHeader: optStr(h.hmacTimestampHeader),
      prefix: optStr(h.hmacPrefix),
    });
  } else if (h.authType === 'oauth2ClientCredentials') {
    auth = compact({
      type: 'oauth2ClientCredentials',
      tokenUrl: h.oauthTokenUrl.trim(),
      clientIdSecret: h.oauthClientIdSecret.trim(),
      clientSecretSecret: h.oauthClientSecretSecret.trim(),
      scope: optStr(h.oauthScope),
      audience: optStr(h.oauthAudience),
    });
  }
  const headers = Object.fromEntries(h.headers.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]));
  return compact({
    method: h.method,
    urlTemplate: h.urlTemplate.trim(),
    headers: Object.keys(headers).length ? headers : undefined,
    bodyTemplate: h.bodyTemplate === '' ? undefined : h.bodyTemplate,
    successCodes: h.successCodes.trim()
      ? h.successCodes
          .split(/[\s,]+/)
          .filter(Boolean)
          .map(Number)
      : undefined,
    timeoutMs: optInt(h.timeoutMs),
    responseEncoding: h.responseEncoding,
    extractExpr: optStr(h.extractExpr),
    errorMode: h.errorMode,
    maxRetries: optInt(h.maxRetries),
    auth,
  });
}

/** Builds the ToolInput to send; call only when localIssues is empty (the JSON must parse). */
export function toToolInput(d: ToolDraft): ToolInput {
  return compact({
    displayName: d.displayName,
    description: d.description,
    type: d.type,
    isEnabled: d.isEnabled,
    tags: d.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    safety: d.safety === 'auto' ? undefined : d.safety,
    argSchema: JSON.parse(d.argSchemaText) as ToolInput['argSchema'],
    outputSchema: JSON.parse(d.outputSchemaText) as ToolInput['outputSchema'],
    impl: implOf(d),
    card: compact({
      enabled: d.card.enabled,
      title: optStr(d.card.title),
      accentColor: optStr(d.card.accentColor),
      backgroundColor: optStr(d.card.backgroundColor),
    }),
    limits: compact({ maxCallsPerMinute: optInt(d.maxCallsPerMinute), maxOutputBytes: optInt(d.maxOutputBytes) }),
    slug: d.slug.normalize('NFC'),
    version: d.version.normalize('NFC'),
  }) as ToolInput;
}

function intIssue(value: string, min: number, max: number): string | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value.trim());
  if (!Number.isInteger(n)) return 'must be a whole number';
  if (n < min || n > max) return `must be between ${min.toLocaleString()} and ${max.toLocaleString()}`;
  return undefined;
}

function numberIssue(value: string, exclusiveMin: number, max: number): string | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value.trim());
  if (!Number.isFinite(n)) return 'must be a number';
  if (n <= exclusiveMin || n > max) return `must be more than ${exclusiveMin} and at most ${max}`;
  return undefined;
}

const CSS_COLOR = /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/deg]+\)|[a-zA-Z]{3,24})$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** Problems found without the server, keyed by the same field names the server uses. */
export function localIssues(d: ToolDraft): Map<string, string> {
  const out = new Map<string, string>();
  const set = (field: string, msg: string | undefined) => {
    if (msg && !out.has(field)) out.set(field, msg);
  };
  const slug = checkSlug(d.slug);
  if (!slug.ok) set('slug', slug.message);
  const version = checkVersion(d.version);
  if (!version.ok) set('version', version.message);
  const argProblems = jsonProblems(d.argSchemaText, checkArgSchema);
  if (argProblems.length) set('argSchema', argProblems[0]);
  const outProblems = jsonProblems(d.outputSchemaText, checkJsonSchema);
  if (outProblems.length) set('outputSchema', outProblems[0]);
  set('limits.maxCallsPerMinute', intIssue(d.maxCallsPerMinute, 1, 100000));
  set('limits.maxOutputBytes', intIssue(d.maxOutputBytes, 64, 16 * 1024 * 1024));
  if (d.card.accentColor && !CSS_COLOR.test(d.card.accentColor.trim()))
    set('card.accentColor', 'use a colour such as #4a90d4, rgb(…), hsl(…) or a colour name');
  if (d.card.backgroundColor && !CSS_COLOR.test(d.card.backgroundColor.trim()))
    set('card.backgroundColor', 'use a colour such as #ffffff, rgba(…), hsl(…) or a colour name');

  if (d.type === 'function') {
    if (!d.functionName.trim()) set('impl.function', 'pick a registered function');
  } else if (d.type === 'container') {
    const c = d.container;
    if (c.source === 'image' && !/^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/.test(c.image.trim()))
      set('impl.image', 'give an image reference such as alpine:3.20 or registry.example.com/tool@sha256:…');
    if (c.memory.trim() && !/^[0-9]+(\.[0-9]+)?[kKmMgG]?[bB]?$/.test(c.memory.trim())) set('impl.sandbox', 'memory: megabytes (256) or with a unit (256m, 1g)');
    set('impl.sandbox', numberIssue(c.cpus, 0, 64) && `cpus: ${numberIssue(c.cpus, 0, 64)}`);
    set('impl.timeoutSeconds', numberIssue(c.timeoutSeconds, 0, 3600));
  } else {
    const h = d.http;
    if (!/^https?:\/\/[^/?#\s]+/i.test(h.urlTemplate.trim())) set('impl.urlTemplate', 'must start with http:// or https:// followed by a host');
    else if (/^https?:\/\/[^/?#]*\$\{/i.test(h.urlTemplate.trim()))
      set('impl.urlTemplate', 'write the host literally (it is checked against allowedHosts); put ${…} placeholders in the path or query');
    const args = argNamesOf(d);
    const unknown = (text: string) => findPlaceholders(text).find((p) => !args.includes(p.name) && !isSecretName(p.name));
    const u1 = unknown(h.urlTemplate);
    if (u1) set('impl.urlTemplate', `\${${u1.name}} is neither an argument nor a secret name`);
    const u2 = unknown(h.bodyTemplate);
    if (u2) set('impl.bodyTemplate', `\${${u2.name}} is neither an argument nor a secret name`);
    const seen = new Set<string>();
    for (const r of h.headers) {
      const name = r.name.trim();
      if (!name && !r.value) continue;
      if (!HEADER_NAME.test(name)) set('impl.headers', `header name '${name}' is not a valid HTTP token`);
      else if (seen.has(name.toLowerCase())) set('impl.headers', `header '${name}' appears twice`);
      seen.add(name.toLowerCase());
      const u = unknown(r.value);
      if (u) set('impl.headers', `${name}: \${${u.name}} is neither an argument nor a secret name`);
      if (/[\r\n]/.test(r.value)) set('impl.headers', `${name}: must not contain line breaks`);
    }
    if (
      h.successCodes.trim() &&
      h.successCodes
        .split(/[\s,]+/)
        .filter(Boolean)
        .some((c) => !/^[1-5]\d\d$/.test(c))
    )
      set('impl.successCodes', 'list status codes between 100 and 599, e.g. 200, 201');
    set('impl.timeoutMs', intIssue(h.timeoutMs, 1, 600000));
    set('impl.maxRetries', intIssue(h.maxRetries, 0, 10));
    if (h.extractExpr.trim() && !/^\$/.test(h.extractExpr.trim()) && !/^\/.*\/[dgimsuyv]*$/s.test(h.extractExpr.trim()))
      set('impl.extractExpr', 'use a JSONPath starting with $ or a /regex/');
    if (h.authType === 'hmac' && !isSecretName(h.hmacSecret.trim())) set('impl.auth', 'HMAC needs the name of a secret (UPPER_SNAKE_CASE)');
    if (h.authType === 'oauth2ClientCredentials') {
      if (!/^https?:\/\//.test(h.oauthTokenUrl.trim())) set('impl.auth', 'token URL must start with https://');
      else if (!isSecretName(h.oauthClientIdSecret.trim()) || !isSecretName(h.oauthClientSecretSecret.trim()))
        set('impl.auth', 'client ID and client secret are secret names (UPPER_SNAKE_CASE)');
    }
  }
  return out;
}

/** Argument names from the draft's argSchema text (empty while it does not parse). */
export function argNamesOf(d: ToolDraft): string[] {
  try {
    return argNames(JSON.parse(d.argSchemaText));
  } catch {
    return [];
  }
}

export const TOOL_FIELDS = [
  'slug',
  'version',
  'displayName',
  'description',
  'tags',
  'safety',
  'type',
  'isEnabled',
  'argSchema',
  'outputSchema',
  'impl.method',
  'impl.urlTemplate',
  'impl.headers',
  'impl.bodyTemplate',
  'impl.successCodes',
  'impl.timeoutMs',
  'impl.responseEncoding',
  'impl.extractExpr',
  'impl.errorMode',
  'impl.maxRetries',
  'impl.auth',
  'impl.function',
  'impl.image',
  'impl.build',
  'impl.sandbox',
  'impl.timeoutSeconds',
  'card',
  'card.title',
  'card.accentColor',
  'card.backgroundColor',
  'limits.maxCallsPerMinute',
  'limits.maxOutputBytes',
] as const;
