// Long on purpose: one OpenAPI operation to one http tool, a single pass whose steps (params, body, auth, names) read the same document.
/**
 * An OpenAPI 3 document (JSON or YAML) becomes a new bundle of http tools, one per operation.
 *
 * - path parameters → `${arg}` in the URL path (required); query parameters → `name=${arg}`
 *   in the query string; header parameters → headers; cookie parameters are left out (noted);
 *   array and object parameters keep their schema, and their style/explode goes to
 *   impl.serialization (query arrays in the default form/explode need none);
 * - a JSON request body → one argument `body` with the body's schema, sent as `${body}` (the
 *   http runner writes a bare placeholder as a JSON value); a form body → one argument per field;
 * - security: apiKey (header, query, cookie) and http bearer/basic → a header or query
 *   placeholder naming a secret (UPPER_SNAKE_CASE of the scheme's name); OAuth2 client
 *   credentials → impl.auth; other schemes are noted for the user to finish by hand;
 * - the first 2xx response's JSON schema → outputSchema; any 2xx counts as success (documents
 *   often list 201 where the API answers 200, so the listed codes are not made the only ones);
 * - local $refs are inlined (recursive ones cut, with a note); external $refs leave the
 *   operation out with a warning, as does anything else one operation gets wrong;
 * - the server URL's host is proposed for allowedHosts (ImportReport.hostsToAllow); the user
 *   confirms. A relative server URL needs `serverUrl`.
 */
import type { Config, HttpImpl } from '../../../../shared/schemas.js';
import type { ParamSerialization, ParamStyle } from '../../../../shared/tool-types/http.js';
import type { ImportReport } from '../../../../shared/types.js';
import { CoreError, invalid } from '../../errors.js';
import type { TransferLimits } from '../../archive/limits.js';
import type { BundleDraft, ToolDraft } from '../validate.js';
import { clip, newBundleFile, newToolFile } from './common.js';
import { secretName, slugify, uniqueName, versionOf } from '../../util/names.js';
import { parseYamlDocument } from './skill-md.js';
import { DATA_KEYWORDS, formatsAsAnnotations, toJsonSchema } from './openapi-schema.js';
import { parseJsonText } from '../../fs/json-text.js';

export interface OpenApiOptions {
  /** Base URL to use instead of the document's servers[0] (required when that one is relative). */
  serverUrl?: string;
}

interface Context extends OpenApiOptions {
  now: string;
  limits: TransferLimits;
  config: Config;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
const MAX_OPERATIONS = 1000;
/** Inlined schema nodes per operation: shared $refs can otherwise grow a schema exponentially. */
const MAX_SCHEMA_NODES = 20_000;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const IGNORED_HEADER_PARAMS = new Set(['accept', 'content-type', 'authorization']);

class SkipOperation extends Error {}

const STYLES_BY_PLACE: Record<string, readonly ParamStyle[]> = {
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  path: ['simple', 'label', 'matrix'],
  header: ['simple'],
};

/** A parameter's style and explode with OpenAPI's defaults; a style its place does not allow is refused. */
function paramStyle(p: Json, where: string): ParamSerialization | undefined {
  const allowed = STYLES_BY_PLACE[where];
  if (!allowed) return undefined;
  const style = (str(p['style']) ?? allowed[0]!) as ParamStyle;
  if (!allowed.includes(style))
    throw new SkipOperation(`its ${where} parameter '${String(p['name'])}' has style '${style}', which OpenAPI does not define for ${where} parameters`);
  return { style, explode: typeof p['explode'] === 'boolean' ? p['explode'] : style === 'form' || style === 'deepObject' };
}

/** Inlines local $refs of one document. */
class Refs {
  private nodes = 0;
  constructor(
    private readonly root: Json,
    readonly notes: string[],
  ) {}

  reset(): void {
    this.nodes = 0;
  }

  lookup(ref: string): unknown {
    if (!ref.startsWith('#/')) throw new SkipOperation(`it uses the external reference '${ref}'; only references inside the document (#/…) are followed`);
    let node: unknown = this.root;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = obj(node)?.[key] ?? (Array.isArray(node) ? node[Number(key)] : undefined);
      if (node === undefined) throw new SkipOperation(`the reference '${ref}' points nowhere`);
    }
    return node;
  }

  /** The node with every $ref inside it replaced by its target. */
  inline(node: unknown, stack: string[] = []): unknown {
    this.nodes++;
    if (Array.isArray(node)) return node.map((n) => this.inline(n, stack));
    const o = obj(node);
    if (!o) return node;
    const ref = str(o['$ref']);
    if (ref !== undefined) {
      // Past the budget no reference is expanded any more (each further one is a constant
      // stand-in), so the operation stays importable and its schema stays bounded.
      if (this.nodes > MAX_SCHEMA_NODES) {
        this.notes.push(`its schemas pass ${MAX_SCHEMA_NODES} nodes once references are inlined; further references were left unchecked (any value)`);
        return { description: `${ref.split('/').pop()} (not expanded: the schema is too large)` };
      }
      if (stack.includes(ref)) {
        this.notes.push(`the recursive schema ${ref} was cut at its second level`);
        return { description: `recursive: ${ref.split('/').pop()}` };
      }
      const { $ref: _ref, ...siblings } = o;
      const target = this.inline(this.lookup(ref), [...stack, ref]);
      return Object.keys(siblings).length && obj(target) ? { ...(target as Json), ...(this.inline(siblings, stack) as Json) } : target;
    }
    const out: Json = {};
    // Examples, defaults and enums are data: a "$ref" or "$id" inside them is not a reference.
    for (const [k, v] of Object.entries(o)) out[k] = DATA_KEYWORDS.has(k) || k.startsWith('x-') ? v : this.inline(v, stack);
    return out;
  }

  /** A $ref'd object (parameter, body, response, scheme) without inlining its insides. */
  deref(node: unknown): Json | undefined {
    let o = obj(node);
    for (let i = 0; i < 16 && o && typeof o['$ref'] === 'string'; i++) o = obj(this.lookup(o['$ref']));
    return o;
  }
}

function parseDocument(text: string): Json {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  let value: unknown;
  if (trimmed.startsWith('{')) {
    const parsed = parseJsonText(trimmed);
    if (!parsed.ok) throw invalid([{ field: 'document', message: parsed.reason }]);
    value = parsed.value;
  } else value = parseYamlDocument(trimmed, 'document');
  const doc = obj(value);
  if (!doc) throw invalid([{ field: 'document', message: 'is not an OpenAPI document (a JSON or YAML object)' }]);
  return doc;
}

/** Swagger 2.0 is converted to OpenAPI 3 (swagger2openapi, the converter of the OpenAPI tooling ecosystem); references are never fetched. */
async function asOpenApi3(doc: Json, warnings: string[]): Promise<Json> {
  if (doc['swagger'] === undefined) return doc;
  if (String(doc['swagger']) !== '2.0') throw invalid([{ field: 'swagger', message: `version '${String(doc['swagger'])}' is not Swagger 2.0 or OpenAPI 3` }]);
  // Loaded for a Swagger 2.0 document only: every process that opens the core would otherwise pay for it.
  const { convertObj } = await import('swagger2openapi');
  let converted: Json;
  try {
    converted = (await convertObj(structuredClone(doc) as never, { patch: true, warnOnly: true, resolve: false, direct: true } as never)) as unknown as Json;
  } catch (e) {
    throw invalid([{ field: 'swagger', message: `this Swagger 2.0 document could not be converted to OpenAPI 3: ${clip((e as Error).message, 200)}` }]);
  }
  warnings.push('converted from Swagger 2.0 to OpenAPI 3 before import');
  return converted;
}

function checkOpenApi3(doc: Json): Json {
  if (!/^3\.\d+/.test(String(doc['openapi'] ?? '')))
    throw invalid([{ field: 'openapi', message: 'must be a 3.x version: this reads OpenAPI 3.0 and 3.1 documents' }]);
  if (!obj(doc['paths']) || !Object.keys(doc['paths'] as Json).length) throw invalid([{ field: 'paths', message: 'the document describes no operations' }]);
  return doc;
}

/** A parameter's, body's or response's schema as JSON Schema (see openapi-schema.ts). */
function ctxSchema(schema: unknown, doc: Json): Json {
  return toJsonSchema(schema, String(doc['openapi'] ?? '').startsWith('3.0'));
}

function serverBase(servers: unknown, override: string | undefined): string | undefined {
  if (override) return override.replace(/\/+$/, '');
  const first = obj(Array.isArray(servers) ? servers[0] : undefined);
  let url = str(first?.['url']);
  if (!url) return undefined;
  const vars = obj(first?.['variables']) ?? {};
  url = url.replace(/\{([^}]+)\}/g, (m, name: string) => {
    const d = obj(vars[name])?.['default'];
    return d === undefined ? m : String(d);
  });
  return url.replace(/\/+$/, '');
}

/** A placeholder-safe argument name, unique among the operation's arguments. */
function argName(raw: string, where: string, taken: Set<string>): string {
  let name = raw.replace(/[{}$\s]/g, '_') || 'arg';
  if (taken.has(name)) name = `${name}_${where}`;
  for (let i = 2; taken.has(name); i++) name = `${raw}_${i}`;
  taken.add(name);
  return name;
}

/** A multipart field that carries a file (format binary/byte, or a media type) is given as base64 text. */
function asFileArgument(schema: unknown): unknown {
  const s = obj(schema);
  if (!s) return schema;
  if (s['type'] === 'array') return { ...s, items: asFileArgument(s['items']) };
  const isFile = s['format'] === 'binary' || s['format'] === 'byte' || typeof s['contentMediaType'] === 'string';
  if (!isFile) return s;
  const { format: _format, ...rest } = s;
  const what = str(s['description']);
  return { ...rest, type: 'string', contentEncoding: 'base64', description: `${what ? `${what} ` : ''}(the file's content, base64)` };
}

function applySecurity(op: Json, doc: Json, refs: Refs, impl: HttpImpl, query: string[], base: string, notes: string[]): void {
  const requirements = (op['security'] ?? doc['security']) as unknown;
  const first = obj(Array.isArray(requirements) ? requirements[0] : undefined);
  if (!first) return;
  const schemes = obj(obj(doc['components'])?.['securitySchemes']) ?? {};
  for (const [key, scopes] of Object.entries(first)) {
    const scheme = refs.deref(schemes[key]);
    if (!scheme) {
      notes.push(`its security scheme '${key}' is not defined in the document; add the credentials it needs as a header by hand`);
      continue;
    }
    const secret = secretName(key);
    const type = str(scheme['type']);
    const headers = (impl.headers ??= {});
    if (type === 'apiKey') {
      const name = str(scheme['name']) ?? key;
      const where = str(scheme['in']);
      if (where === 'header') headers[name] = `\${${secret}}`;
      else if (where === 'query') query.push(`${encodeURIComponent(name)}=\${${secret}}`);
      else if (where === 'cookie') headers['Cookie'] = `${name}=\${${secret}}`;
      notes.push(`needs secret ${secret}: the API key '${key}', sent as the ${where ?? 'header'} ${name}`);
    } else if (type === 'http' && str(scheme['scheme'])?.toLowerCase() === 'bearer') {
      headers['Authorization'] = `Bearer \${${secret}}`;
      notes.push(`needs secret ${secret}: the bearer token for '${key}'`);
    } else if (type === 'http' && str(scheme['scheme'])?.toLowerCase() === 'basic') {
      headers['Authorization'] = `Basic \${${secret}}`;
      notes.push(`secret ${secret} holds the base64 of "user:password" (HTTP Basic)`);
    } else if (type === 'oauth2' && obj(obj(scheme['flows'])?.['clientCredentials'])) {
      const flow = obj(obj(scheme['flows'])!['clientCredentials'])!;
      const tokenUrl = new URL(str(flow['tokenUrl']) ?? '', `${base}/`).toString();
      impl.auth = { type: 'oauth2ClientCredentials', tokenUrl, clientIdSecret: `${secret}_CLIENT_ID`, clientSecretSecret: `${secret}_CLIENT_SECRET` };
      if (Array.isArray(scopes) && scopes.length) impl.auth.scope = scopes.join(' ');
    } else if (type === 'oauth2' || type === 'openIdConnect') {
      // Toolwright cannot run a browser sign-in; the tool takes an access token obtained elsewhere.
      const token = `${secret}_ACCESS_TOKEN`;
      headers['Authorization'] = `Bearer \${${token}}`;
      const flows = obj(scheme['flows']) ?? {};
      const where =
        str(obj(flows['authorizationCode'])?.['authorizationUrl']) ??
        str(obj(flows['implicit'])?.['authorizationUrl']) ??
        str(scheme['openIdConnectUrl']) ??
        'the provider';
      notes.push(
        `needs secret ${token}: an OAuth2 access token for '${key}' (sign in at ${clip(where, 120)}, then set the token as a secret); it is sent as Authorization: Bearer`,
      );
    } else if (type === 'http') {
      notes.push(
        `uses HTTP ${str(scheme['scheme']) ?? ''} authentication ('${key}'), which Toolwright cannot perform; add an Authorization header with a secret by hand`,
      );
    } else {
      notes.push(`uses ${type ?? 'an unknown'} authentication ('${key}'), which Toolwright cannot perform; add the credentials as a header by hand`);
    }
  }
  if (impl.headers && !Object.keys(impl.headers).length) delete impl.headers;
}

function operationTool(
  path: string,
  method: (typeof METHODS)[number],
  op: Json,
  common: unknown[],
  doc: Json,
  refs: Refs,
  base: string,
  bundleID: string,
  slug: string,
  version: string,
  ctx: Context,
  notes: string[],
): ToolDraft {
  refs.reset();
  const origin = `${method.toUpperCase()} ${path}`;
  const taken = new Set<string>();
  const properties: Json = {};
  const required: string[] = [];
  const query: string[] = [];
  const impl: HttpImpl = { method: method.toUpperCase() as HttpImpl['method'], urlTemplate: '' };
  const headers: Record<string, string> = {};
  const serialization: NonNullable<HttpImpl['serialization']> = {};

  const byKey = new Map<string, Json>();
  for (const raw of [...common, ...((op['parameters'] as unknown[]) ?? [])]) {
    const p = refs.deref(raw);
    if (p && typeof p['name'] === 'string' && typeof p['in'] === 'string') byKey.set(`${p['in']}\0${p['name']}`, p);
  }
  let urlPath = path;
  for (const p of byKey.values()) {
    const name = p['name'] as string;
    const where = p['in'] as string;
    if (where === 'cookie') {
      notes.push(`cookie parameter '${name}' was left out`);
      continue;
    }
    if (where === 'header' && (IGNORED_HEADER_PARAMS.has(name.toLowerCase()) || !HEADER_NAME.test(name))) continue;
    const arg = argName(name, where, taken);
    const schema = { ...ctxSchema(refs.inline(p['schema'] ?? obj(obj(p['content'])?.['application/json'])?.['schema'] ?? {}), doc) };
    if (typeof p['description'] === 'string' && schema['description'] === undefined) schema['description'] = p['description'];
    const kind = schema['type'];
    const style = paramStyle(p, where);
    // Arrays and objects stay typed; the http runner writes them by the parameter's style and
    // explode (impl.serialization). Query arrays in the default form/explode need no entry.
    if (style && (kind === 'array' || kind === 'object' || style.style === 'label' || style.style === 'matrix')) {
      const plainQueryArray = where === 'query' && kind === 'array' && style.style === 'form' && style.explode;
      if (!plainQueryArray) serialization[arg] = style;
    }
    properties[arg] = schema;
    if (p['required'] === true || where === 'path') required.push(arg);
    if (where === 'path') urlPath = urlPath.split(`{${name}}`).join(`\${${arg}}`);
    else if (where === 'query') query.push(`${encodeURIComponent(name)}=\${${arg}}`);
    else if (where === 'header') headers[name] = `\${${arg}}`;
  }
  // A {parameter} of the path that no parameter describes (a common slip in real documents)
  // becomes a required text argument, so the operation stays callable.
  urlPath = urlPath.replace(/(?<!\$)\{([^{}]+)\}/g, (_m, name: string) => {
    const arg = argName(name, 'path', taken);
    properties[arg] = { type: 'string', description: `path parameter ${name} (not described by the document)` };
    required.push(arg);
    notes.push(`path parameter '${name}' is not described; it became the required text argument '${arg}'`);
    return `\${${arg}}`;
  });

  const body = refs.deref(op['requestBody']);
  if (body) {
    const content = obj(body['content']) ?? {};
    const types = Object.keys(content);
    const json = types.find((t) => /^application\/(.+\+)?json\b/i.test(t));
    const form = types.find((t) => /^application\/x-www-form-urlencoded\b/i.test(t)) ?? types.find((t) => /^multipart\/form-data\b/i.test(t));
    if (json) {
      const arg = argName('body', 'body', taken);
      properties[arg] = ctxSchema(refs.inline(obj(content[json])?.['schema'] ?? {}), doc);
      if (body['required'] === true) required.push(arg);
      impl.bodyTemplate = `\${${arg}}`;
      headers['Content-Type'] = json;
    } else if (form) {
      const schema = ctxSchema(refs.inline(obj(content[form])?.['schema'] ?? {}), doc);
      const fields = Object.entries(obj(schema['properties']) ?? {});
      const pairs: string[] = [];
      const multipart = /^multipart\//i.test(form);
      for (const [field, s] of fields) {
        const arg = argName(field, 'form', taken);
        properties[arg] = multipart ? asFileArgument(s) : s;
        pairs.push(`${encodeURIComponent(field)}=\${${arg}}`);
        if (Array.isArray(schema['required']) && schema['required'].includes(field)) required.push(arg);
      }
      impl.bodyTemplate = pairs.join('&');
      headers['Content-Type'] = multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
    } else if (types.length) {
      const type = types[0]!;
      if (/^multipart\//i.test(type)) throw new SkipOperation(`its request body is ${type}, which http tools cannot send (multipart/form-data they can)`);
      const arg = argName('body', 'body', taken);
      properties[arg] = { type: 'string', description: `the request body (${type})` };
      if (body['required'] === true) required.push(arg);
      impl.bodyTemplate = `\${${arg}}`;
      headers['Content-Type'] = type;
    }
  }
  if (Object.keys(headers).length) impl.headers = headers;
  if (Object.keys(serialization).length) impl.serialization = serialization;
  applySecurity(op, doc, refs, impl, query, base, notes);
  impl.urlTemplate = `${base}${urlPath}${query.length ? `?${query.join('&')}` : ''}`;

  const responses = obj(op['responses']) ?? {};
  const codes = Object.keys(responses)
    .filter((c) => /^2\d\d$/.test(c))
    .sort();
  const success = refs.deref(responses[codes[0] ?? ''] ?? responses['2XX'] ?? responses['default']);
  const responseContent = obj(success?.['content']) ?? {};
  const jsonResponse = Object.keys(responseContent).find((t) => /^application\/(.+\+)?json\b/i.test(t));
  let outputSchema: Json | undefined;
  if (jsonResponse) {
    impl.responseEncoding = 'json';
    const raw = obj(responseContent[jsonResponse])?.['schema'];
    if (raw !== undefined) outputSchema = formatsAsAnnotations(ctxSchema(refs.inline(raw), doc)) as Json;
  } else if (Object.keys(responseContent).length) impl.responseEncoding = 'text';

  const argSchema: Json = { type: 'object', properties };
  if (required.length) argSchema['required'] = [...new Set(required)];
  const tags = Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string' && t.length > 0 && t.length <= 64).slice(0, 64) : [];
  const file = newToolFile(
    {
      slug,
      version,
      type: 'http',
      impl,
      displayName: str(op['summary']) ?? str(op['operationId']) ?? origin,
      description: str(op['description']) ?? str(op['summary']) ?? '',
      argSchema,
      tags,
      ...(outputSchema ? { outputSchema } : {}),
    },
    bundleID,
    ctx.now,
  );
  return { file, files: [], origin };
}

/** The document's servers, for the user to pick from (the first is used unless serverUrl says otherwise). */
function serverChoices(servers: unknown): NonNullable<ImportReport['servers']> {
  if (!Array.isArray(servers)) return [];
  return servers.slice(0, 50).flatMap((raw) => {
    const s = obj(raw);
    const url = str(s?.['url']);
    if (!s || !url) return [];
    const variables: Record<string, { default: string; enum?: string[] }> = {};
    for (const [name, v] of Object.entries(obj(s['variables']) ?? {})) {
      const o = obj(v);
      if (!o) continue;
      variables[name] = { default: String(o['default'] ?? ''), ...(Array.isArray(o['enum']) ? { enum: o['enum'].map(String) } : {}) };
    }
    const filled = serverBase([s], undefined) ?? url;
    return [
      { url: filled, ...(str(s['description']) ? { description: str(s['description'])! } : {}), ...(Object.keys(variables).length ? { variables } : {}) },
    ];
  });
}

export async function bundleFromOpenApi(
  text: string,
  ctx: Context,
): Promise<{ draft: BundleDraft; warnings: string[]; servers: NonNullable<ImportReport['servers']>; items: NonNullable<ImportReport['items']> }> {
  if (Buffer.byteLength(text, 'utf8') > ctx.limits.maxDocumentBytes) throw new CoreError('PAYLOAD_TOO_LARGE', 'the OpenAPI document is too large');
  const warnings: string[] = [];
  const doc = checkOpenApi3(await asOpenApi3(parseDocument(text), warnings));
  const info = obj(doc['info']) ?? {};
  const title = str(info['title']) ?? 'api';
  const bundle = newBundleFile(slugify(title, 'api'), title, str(info['description']) ?? '', ctx.now);
  const version = versionOf(info['version']);
  const docBase = serverBase(doc['servers'], ctx.serverUrl);
  const draft: BundleDraft = { file: bundle, tools: [], origin: `OpenAPI '${clip(title, 64)}'` };
  const taken = new Set<string>();
  const notes: string[] = [];
  const refs = new Refs(doc, notes);
  const items: NonNullable<ImportReport['items']> = [];
  let count = 0;
  for (const [path, rawItem] of Object.entries(obj(doc['paths'])!)) {
    let item: Json | undefined;
    try {
      item = refs.deref(rawItem);
    } catch (e) {
      warnings.push(`left out ${path}: ${(e as Error).message}`);
      items.push({ origin: path, status: 'skipped', reason: (e as Error).message });
      continue;
    }
    if (!item) continue;
    for (const method of METHODS) {
      const op = obj(item[method]);
      if (!op) continue;
      const label = `${method.toUpperCase()} ${path}`;
      if (++count > MAX_OPERATIONS) {
        warnings.push(`only the first ${MAX_OPERATIONS} operations were imported`);
        break;
      }
      const base = serverBase(op['servers'] ?? item['servers'], ctx.serverUrl) ?? docBase;
      if (!base || !/^https?:\/\//i.test(base)) {
        throw invalid([
          {
            field: 'servers',
            message: base
              ? `the server URL '${base}' is relative or not http(s); give the API's base URL (serverUrl), e.g. https://api.example.com`
              : "the document names no server; give the API's base URL (serverUrl), e.g. https://api.example.com",
          },
        ]);
      }
      const opID = str(op['operationId']);
      const slug = uniqueName(slugify(opID ?? `${method} ${path}`, method), taken);
      notes.length = 0;
      try {
        draft.tools.push(operationTool(path, method, op, (item['parameters'] as unknown[]) ?? [], doc, refs, base, bundle.bundleID, slug, version, ctx, notes));
        for (const n of new Set(notes)) warnings.push(`${label}: ${n}`);
        items.push({ origin: label, status: 'imported', slug, version });
      } catch (e) {
        // One malformed operation (a bad reference, a token URL that is no URL, …) never blocks the others.
        taken.delete(slug);
        warnings.push(`left out ${label}: ${(e as Error).message}`);
        items.push({ origin: label, status: 'skipped', reason: (e as Error).message });
      }
    }
    if (count > MAX_OPERATIONS) break;
  }
  if (!draft.tools.length) throw invalid([{ field: 'paths', message: `no operation could be imported${warnings.length ? `: ${warnings.join('; ')}` : ''}` }]);
  return { draft, warnings, servers: serverChoices(doc['servers']), items };
}
