/**
 * Builds the HTTP request of an http tool from its impl, the call's arguments and secrets.
 *
 * A `${name}` placeholder names an argSchema property (the argument wins when a name is both)
 * or else a secret (UPPER_SNAKE_CASE). An argument the call left out expands to "" (null as a
 * bare JSON value). Values are expanded once; a value that itself contains `${…}` stays text.
 *
 * Encoding by place:
 * - urlTemplate: every value percent-encoded with encodeURIComponent, so a value cannot add a
 *   path segment, query parameter, fragment or user@ part.
 * - headers: raw; a value (or a template) containing CR, LF or NUL is refused.
 * - bodyTemplate is JSON when the Content-Type header names JSON (application/json,
 *   application/*+json), or, with no Content-Type, when the template parses as JSON once its
 *   placeholders are stood in for; Content-Type application/json is then added. In a JSON
 *   body a placeholder inside a string literal ("${city}") gets the JSON-escaped text, and a
 *   bare placeholder (${days}) gets the argument as a JSON value (number, boolean, object, or
 *   a quoted string). A form body (application/x-www-form-urlencoded) gets percent-encoded
 *   values; any other body gets raw text.
 */
import { findPlaceholders, isSecretName, TOOL_VERSION_PLACEHOLDER } from '../../../../shared/template.js';
import type { HttpImpl, ToolFile } from '../../../../shared/schemas.js';
import type { ParamSerialization } from '../../../../shared/tool-types/http.js';
import { CoreError } from '../../errors.js';
import { serializePairs, serializeSegment } from './styles.js';
import { buildMultipart, type MultipartValue } from './multipart.js';
import type { SecretsReader } from '../../secrets/types.js';

export interface BuiltRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** The body as text (for a multipart body: with file bytes shown as their count), as the exchange shows and HMAC signs it. */
  body: string | undefined;
  /** What goes on the wire when it is not `body` itself (a multipart body with files). */
  bytes?: Uint8Array;
  /** Lower-cased names of headers whose value came (partly) from a secret: dropped on a cross-origin redirect. */
  secretHeaders: Set<string>;
}

type Source = { kind: 'arg'; value: unknown } | { kind: 'secret'; name: string; value: string };

export function argNamesOf(tool: Pick<ToolFile, 'argSchema'>): Set<string> {
  return argNames(tool.argSchema);
}

/** The property names of an argSchema (empty when it has none). */
export function argNames(argSchema: unknown): Set<string> {
  const schema = argSchema as { properties?: Record<string, unknown> } | boolean | null;
  if (typeof schema !== 'object' || schema === null || typeof schema.properties !== 'object' || schema.properties === null) return new Set();
  return new Set(Object.keys(schema.properties));
}

export function secretNotSet(name: string): CoreError {
  return new CoreError('TOOL_UNAVAILABLE', `secret ${name} is not set; set it under Secrets (PUT /tools/secrets/${name}) and call again`, { secret: name });
}

class Resolver {
  constructor(
    private readonly args: Record<string, unknown>,
    private readonly argNames: Set<string>,
    private readonly secrets: SecretsReader,
    private readonly serialization: NonNullable<HttpImpl['serialization']> = {},
    private readonly toolVersion?: string,
  ) {}

  /** How an argument is serialised (impl.serialization); undefined for secrets and unstyled arguments. */
  styleOf(name: string, source: Source): ParamSerialization | undefined {
    return source.kind === 'arg' && Object.hasOwn(this.serialization, name) ? this.serialization[name] : undefined;
  }

  resolve(name: string, field: string): Source {
    if (this.argNames.has(name)) return { kind: 'arg', value: Object.hasOwn(this.args, name) ? this.args[name] : undefined };
    if (name === TOOL_VERSION_PLACEHOLDER && this.toolVersion !== undefined) return { kind: 'arg', value: this.toolVersion };
    if (!isSecretName(name)) {
      throw new CoreError(
        'INVALID_INPUT',
        `${field}: placeholder \${${name}} is neither an argument (an argSchema property) nor a secret name (UPPER_SNAKE_CASE)`,
        {
          issues: [{ field, message: `unknown placeholder \${${name}}` }],
        },
      );
    }
    const value = this.secrets.get(name);
    if (value === undefined) throw secretNotSet(name);
    return { kind: 'secret', name, value };
  }
}

function asText(source: Source): string {
  if (source.kind === 'secret') return source.value;
  const v = source.value;
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Expands `${…}` in one template, writing each value through `encode`; an argument with an
 * impl.serialization entry is written by its style (simple, label, matrix), each part encoded.
 */
function expand(
  template: string,
  resolver: Resolver,
  field: string,
  encode: (text: string, source: Source, name: string) => string,
): { text: string; usedSecret: boolean } {
  let out = '';
  let last = 0;
  let usedSecret = false;
  for (const p of findPlaceholders(template)) {
    const source = resolver.resolve(p.name, field);
    if (source.kind === 'secret') usedSecret = true;
    const style = resolver.styleOf(p.name, source);
    const text = style ? serializeSegment(p.name, source.value, style, (t) => encode(t, source, p.name)) : encode(asText(source), source, p.name);
    out += template.slice(last, p.start) + text;
    last = p.end;
  }
  return { text: out + template.slice(last), usedSecret };
}

const LINE_BREAK = /[\r\n\0]/;

function checkHeaderValue(header: string, text: string, source: Source, name: string): string {
  if (!LINE_BREAK.test(text)) return text;
  if (source.kind === 'arg') {
    throw new CoreError('INVALID_ARGS', `argument '${name}' contains a line break (CR/LF) or NUL, which is refused in the ${header} header`, {
      issues: [{ field: name, message: 'must not contain CR, LF or NUL characters' }],
    });
  }
  throw new CoreError(
    'INVALID_INPUT',
    `secret ${name} contains a line break (CR/LF) or NUL and cannot be sent in the ${header} header; set it again without line breaks`,
    { secret: name },
  );
}

const WHOLE_PLACEHOLDER = /^\$\{\s*([^}\s]+)\s*\}$/;

/**
 * `key=value` pairs (a query string, a form body), expanded pair by pair: a pair whose value is
 * one argument's placeholder is left out when the call does not give that argument (an
 * optional `?limit=` is not sent empty), written by the argument's impl.serialization style
 * when it has one (styles.ts), and otherwise repeated per item when the argument is an array
 * (OpenAPI's default style=form, explode=true: `ids=1&ids=2`). Everything else expands as text.
 */
function expandPairs(template: string, resolver: Resolver, field: string): string {
  const out: string[] = [];
  for (const pair of template.split('&')) {
    const eq = pair.indexOf('=');
    const whole = eq > 0 ? WHOLE_PLACEHOLDER.exec(pair.slice(eq + 1)) : null;
    if (whole && eq > 0) {
      const source = resolver.resolve(whole[1]!, field);
      if (source.kind === 'arg') {
        const key = expand(pair.slice(0, eq), resolver, field, (t) => encodeURIComponent(t)).text;
        if (source.value === undefined || source.value === null) continue;
        const style = resolver.styleOf(whole[1]!, source);
        if (style) {
          out.push(...serializePairs(key, source.value, style, encodeURIComponent));
          continue;
        }
        if (Array.isArray(source.value)) {
          for (const item of source.value) out.push(`${key}=${encodeURIComponent(asText({ kind: 'arg', value: item }))}`);
          continue;
        }
      }
    }
    out.push(expand(pair, resolver, field, (t) => encodeURIComponent(t)).text);
  }
  return out.join('&');
}

function expandUrl(impl: HttpImpl, resolver: Resolver): URL {
  const template = impl.urlTemplate;
  const q = template.indexOf('?');
  const hash = template.indexOf('#', q < 0 ? 0 : q);
  let text: string;
  if (q < 0) text = expand(template, resolver, 'impl.urlTemplate', (t) => encodeURIComponent(t)).text;
  else {
    const query = template.slice(q + 1, hash < 0 ? undefined : hash);
    const head = expand(template.slice(0, q), resolver, 'impl.urlTemplate', (t) => encodeURIComponent(t)).text;
    const tail = hash < 0 ? '' : expand(template.slice(hash), resolver, 'impl.urlTemplate', (t) => encodeURIComponent(t)).text;
    const pairs = expandPairs(query, resolver, 'impl.urlTemplate');
    text = `${head}${pairs ? `?${pairs}` : ''}${tail}`;
  }
  try {
    return new URL(text);
  } catch {
    // The expanded text may hold a secret: the message names the template only.
    throw new CoreError('INVALID_INPUT', `impl.urlTemplate '${impl.urlTemplate}' does not expand to a valid absolute URL`, {
      issues: [{ field: 'impl.urlTemplate', message: 'must expand to an absolute http(s) URL' }],
    });
  }
}

function expandHeaders(impl: HttpImpl, resolver: Resolver): { headers: Record<string, string>; secretHeaders: Set<string> } {
  const headers: Record<string, string> = {};
  const secretHeaders = new Set<string>();
  for (const [name, template] of Object.entries(impl.headers ?? {})) {
    const field = `impl.headers.${name}`;
    if (LINE_BREAK.test(template)) {
      throw new CoreError('INVALID_INPUT', `${field} contains a line break (CR/LF) or NUL`, {
        issues: [{ field, message: 'must not contain CR, LF or NUL characters' }],
      });
    }
    const { text, usedSecret } = expand(template, resolver, field, (t, source, pname) => checkHeaderValue(name, t, source, pname));
    const lower = name.toLowerCase();
    headers[lower] = text;
    if (usedSecret) secretHeaders.add(lower);
  }
  return { headers, secretHeaders };
}

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded\b/i;
const MULTIPART_CONTENT_TYPE = /^multipart\/form-data\b/i;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A multipart/form-data body from a form-like template (`name=${arg}&…`): multipart.ts. */
function expandMultipart(template: string, resolver: Resolver, properties: Record<string, unknown>): ReturnType<typeof buildMultipart> {
  const fields: { name: string; part: MultipartValue }[] = [];
  for (const pair of template.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = safeDecode(expand(eq < 0 ? pair : pair.slice(0, eq), resolver, 'impl.bodyTemplate', (t) => t).text);
    const valueTemplate = eq < 0 ? '' : pair.slice(eq + 1);
    const whole = WHOLE_PLACEHOLDER.exec(valueTemplate);
    const source = whole ? resolver.resolve(whole[1]!, 'impl.bodyTemplate') : undefined;
    if (source?.kind === 'arg') {
      const schema = properties[whole![1]!];
      fields.push({
        name,
        part: { value: source.value, argName: whole![1]!, schema: typeof schema === 'object' && schema ? (schema as Record<string, unknown>) : undefined },
      });
    } else fields.push({ name, part: { value: safeDecode(expand(valueTemplate, resolver, 'impl.bodyTemplate', (t) => encodeURIComponent(t)).text) } });
  }
  return buildMultipart(fields);
}

/** For each placeholder of a JSON template: does it sit inside a string literal? */
function placeholderContexts(template: string): { start: number; end: number; name: string; inString: boolean }[] {
  const placeholders = findPlaceholders(template);
  const out: { start: number; end: number; name: string; inString: boolean }[] = [];
  let inString = false;
  let i = 0;
  let next = 0;
  while (i < template.length) {
    const p = placeholders[next];
    if (p && p.start === i) {
      out.push({ ...p, inString });
      i = p.end;
      next++;
      continue;
    }
    const ch = template[i];
    if (inString && ch === '\\') i += 2;
    else {
      if (ch === '"') inString = !inString;
      i++;
    }
    // An escape may have jumped over a placeholder start; keep `next` in step.
    while (placeholders[next] && placeholders[next]!.start < i) {
      out.push({ ...placeholders[next]!, inString });
      next++;
    }
  }
  return out;
}

function looksLikeJson(template: string): boolean {
  const contexts = placeholderContexts(template);
  let probe = '';
  let last = 0;
  for (const c of contexts) {
    probe += template.slice(last, c.start) + (c.inString ? '' : 'null');
    last = c.end;
  }
  probe += template.slice(last);
  try {
    JSON.parse(probe);
    return true;
  } catch {
    return false;
  }
}

function expandJsonBody(template: string, resolver: Resolver): string {
  let out = '';
  let last = 0;
  for (const c of placeholderContexts(template)) {
    const source = resolver.resolve(c.name, 'impl.bodyTemplate');
    let encoded: string;
    if (c.inString) encoded = JSON.stringify(asText(source)).slice(1, -1);
    else if (source.kind === 'secret') encoded = JSON.stringify(source.value);
    else encoded = JSON.stringify(source.value ?? null) ?? 'null';
    out += template.slice(last, c.start) + encoded;
    last = c.end;
  }
  out += template.slice(last);
  try {
    JSON.parse(out);
  } catch {
    // No parser message: it would quote part of the body, which may hold a secret.
    throw new CoreError('INVALID_INPUT', 'impl.bodyTemplate does not give valid JSON after expansion; check its quotes, commas and brackets', {
      issues: [{ field: 'impl.bodyTemplate', message: 'must be valid JSON with ${name} placeholders as values or inside strings' }],
    });
  }
  return out;
}

function expandBody(
  impl: HttpImpl,
  headers: Record<string, string>,
  resolver: Resolver,
  properties: Record<string, unknown>,
): { text: string | undefined; bytes?: Uint8Array } {
  const template = impl.bodyTemplate;
  if (template === undefined) return { text: undefined };
  if (impl.method === 'HEAD') {
    throw new CoreError('INVALID_INPUT', 'impl.bodyTemplate cannot be used with method HEAD', {
      issues: [{ field: 'impl.bodyTemplate', message: 'not allowed with HEAD' }],
    });
  }
  const contentType = headers['content-type'];
  if (contentType === undefined ? looksLikeJson(template) : JSON_CONTENT_TYPE.test(contentType)) {
    headers['content-type'] ??= 'application/json';
    return { text: expandJsonBody(template, resolver) };
  }
  if (contentType !== undefined && FORM_CONTENT_TYPE.test(contentType)) return { text: expandPairs(template, resolver, 'impl.bodyTemplate') };
  if (contentType !== undefined && MULTIPART_CONTENT_TYPE.test(contentType)) {
    const multipart = expandMultipart(template, resolver, properties);
    headers['content-type'] = multipart.contentType;
    return { text: multipart.text, bytes: multipart.bytes };
  }
  headers['content-type'] ??= 'text/plain; charset=utf-8';
  return { text: expand(template, resolver, 'impl.bodyTemplate', (t) => t).text };
}

export function buildRequest(
  impl: HttpImpl,
  tool: Pick<ToolFile, 'argSchema'> & Partial<Pick<ToolFile, 'version'>>,
  args: Record<string, unknown>,
  secrets: SecretsReader,
): BuiltRequest {
  const resolver = new Resolver(args, argNamesOf(tool), secrets, impl.serialization ?? {}, tool.version);
  const url = expandUrl(impl, resolver);
  const { headers, secretHeaders } = expandHeaders(impl, resolver);
  const properties = (tool.argSchema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  const body = expandBody(impl, headers, resolver, typeof properties === 'object' && properties ? properties : {});
  return { method: impl.method, url, headers, body: body.text, ...(body.bytes ? { bytes: body.bytes } : {}), secretHeaders };
}

/** The secret names an http tool uses: placeholders that are not arguments, and its auth's secrets. */
export function httpSecretNames(impl: HttpImpl, argNames: Set<string>): string[] {
  const names = new Set(
    secretPlaceholders(impl, argNames)
      .map((p) => p.name)
      .filter(isSecretName),
  );
  if (impl.auth?.type === 'hmac') names.add(impl.auth.secret);
  if (impl.auth?.type === 'oauth2ClientCredentials') {
    names.add(impl.auth.clientIdSecret);
    names.add(impl.auth.clientSecretSecret);
  }
  return [...names];
}

/** Every `${name}` of the impl that must be a secret (not an argument), with its field. */
export function secretPlaceholders(impl: HttpImpl, argNames: Set<string>): { name: string; field: string }[] {
  const out: { name: string; field: string }[] = [];
  const scan = (template: string | undefined, field: string) => {
    if (template === undefined) return;
    for (const p of findPlaceholders(template)) if (!argNames.has(p.name) && p.name !== TOOL_VERSION_PLACEHOLDER) out.push({ name: p.name, field });
  };
  scan(impl.urlTemplate, 'impl.urlTemplate');
  for (const [name, v] of Object.entries(impl.headers ?? {})) scan(v, `impl.headers.${name}`);
  scan(impl.bodyTemplate, 'impl.bodyTemplate');
  return out;
}
