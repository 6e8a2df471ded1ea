/**
 * The rules a tool must pass before it is written: slug/version, impl by type, schemas that
 * compile, and for http tools the template and host rules. Every issue names its field and
 * says how to fix it. Pure of I/O: the caller supplies config, clock and IDs.
 */
import { v7 as uuidv7 } from 'uuid';
import { LRUCache } from 'lru-cache';
import type { FieldIssue } from '../../../shared/errors.js';
import { checkSlug, checkVersion } from '../../../shared/slug.js';
import { findPlaceholders, isSecretName } from '../../../shared/template.js';
import { isHostAllowed } from '../../../shared/hosts.js';
import {
  ContainerImpl,
  FunctionImpl,
  HttpImpl,
  SCHEMA_VERSION,
  type Config,
  type HttpImpl as HttpImplT,
  type ContainerImpl as ContainerImplT,
  type Safety,
  type ToolFile,
  type ToolType,
} from '../../../shared/schemas.js';
import type { ToolInput } from '../../../shared/operations.js';
import { invalid } from '../errors.js';
import { checkAgainst, makeUserAjv } from '../validation.js';
import { compileExtractExpr } from '../invoke/http/extract.js';

const userAjv = makeUserAjv();

export interface PrepareContext {
  bundleID: string;
  /** Final slug and version (NFC), already checked by the caller. */
  slug: string;
  version: string;
  now: string;
  config: Config;
  /** The tool being replaced, for update: keeps toolID and createdAt. */
  existing?: ToolFile;
}

export function normalizeToolType(type: string): ToolType {
  return type === 'go' ? 'function' : (type as ToolType);
}

// Compiling is the costly part of a save or an import (most tools share a few schemas), so the
// verdict per schema text is remembered.
const schemaVerdicts = new LRUCache<string, string>({ max: 2000 });

/** Checks a user-written JSON Schema compiles; returns issues. */
export function checkUserSchema(schema: unknown, field: string): FieldIssue[] {
  if (typeof schema === 'boolean') return [];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [{ field, message: 'must be a JSON Schema object (or true/false)' }];
  }
  const key = JSON.stringify(schema);
  let verdict = schemaVerdicts.get(key);
  if (verdict === undefined) {
    try {
      const copy = JSON.parse(key) as Record<string, unknown>;
      delete copy['$id']; // an $id would be registered globally in ajv and clash on the next compile
      userAjv.compile(copy);
      userAjv.removeSchema(copy);
      verdict = '';
    } catch (e) {
      verdict = `does not compile as a JSON Schema: ${(e as Error).message}`;
    }
    schemaVerdicts.set(key, verdict);
  }
  return verdict ? [{ field, message: verdict }] : [];
}

export function defaultSafety(type: ToolType, impl: Record<string, unknown>): Safety {
  if (type === 'http') {
    const m = String(impl['method'] ?? 'GET').toUpperCase();
    return m === 'GET' || m === 'HEAD' || m === 'OPTIONS' ? 'readOnly' : 'sideEffecting';
  }
  if (type === 'container') {
    // A container with no network and a read-only root cannot change anything outside itself.
    const sb = (impl['sandbox'] ?? {}) as Record<string, unknown>;
    return sb['network'] === 'bridge' || sb['writable'] === true ? 'sideEffecting' : 'readOnly';
  }
  return 'readOnly';
}

function argProperties(argSchema: unknown): Set<string> {
  if (typeof argSchema !== 'object' || argSchema === null) return new Set();
  const props = (argSchema as Record<string, unknown>)['properties'];
  return new Set(typeof props === 'object' && props !== null ? Object.keys(props) : []);
}

/** The secret names an http tool uses: placeholders that are not arguments, and auth secrets. */
export function httpSecretNames(impl: HttpImplT, argSchema: unknown): string[] {
  const args = argProperties(argSchema);
  const names = new Set<string>();
  const texts = [impl.urlTemplate, impl.bodyTemplate ?? '', ...Object.values(impl.headers ?? {})];
  for (const t of texts) for (const p of findPlaceholders(t)) if (!args.has(p.name) && isSecretName(p.name)) names.add(p.name);
  if (impl.auth?.type === 'hmac') names.add(impl.auth.secret);
  if (impl.auth?.type === 'oauth2ClientCredentials') {
    names.add(impl.auth.clientIdSecret);
    names.add(impl.auth.clientSecretSecret);
  }
  return [...names];
}

/** The literal host of a URL template, or an issue. */
export function templateHost(urlTemplate: string, field: string): { host?: string; issue?: FieldIssue } {
  const m = /^(https?):\/\/([^/?#]*)/i.exec(urlTemplate);
  if (!m) return { issue: { field, message: `must start with http:// or https:// (got '${urlTemplate.slice(0, 40)}')` } };
  const authority = m[2]!;
  if (authority.includes('${')) {
    return { issue: { field, message: 'the host must be written literally so it can be checked against allowedHosts; move the ${…} placeholder into the path or query' } };
  }
  if (authority.includes('@')) {
    return { issue: { field, message: 'credentials in the URL are not allowed; send them in a header with a secret placeholder such as ${API_TOKEN}' } };
  }
  try {
    const host = new URL(`${m[1]}://${authority}/`).hostname;
    if (!host) return { issue: { field, message: 'has no host' } };
    return { host };
  } catch {
    return { issue: { field, message: `has an invalid host '${authority}'` } };
  }
}

function checkHttp(impl: HttpImplT, argSchema: unknown, config: Config): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const args = argProperties(argSchema);
  const hostCheck = (url: string, field: string) => {
    const { host, issue } = templateHost(url, field);
    if (issue) return issues.push(issue);
    const bare = host!.replace(/^\[|\]$/g, '');
    if (!isHostAllowed(bare, config.allowedHosts) && !isHostAllowed(host!, config.allowedHosts)) {
      issues.push({
        field,
        message: `host '${bare}' is not in config.allowedHosts; add it in Settings → Allowed hosts (or PATCH /tools/config {"allowedHosts":[…,"${bare}"]})`,
      });
    }
    return undefined;
  };
  hostCheck(impl.urlTemplate, 'impl.urlTemplate');
  const texts: [string, string][] = [['impl.urlTemplate', impl.urlTemplate]];
  if (impl.bodyTemplate !== undefined) texts.push(['impl.bodyTemplate', impl.bodyTemplate]);
  for (const [name, value] of Object.entries(impl.headers ?? {})) {
    texts.push([`impl.headers.${name}`, value]);
    if (/[\r\n]/.test(value)) issues.push({ field: `impl.headers.${name}`, message: 'must not contain CR or LF characters' });
  }
  for (const [field, text] of texts) {
    for (const p of findPlaceholders(text)) {
      if (args.has(p.name) || isSecretName(p.name)) continue;
      issues.push({
        field,
        message: `\${${p.name}} is neither an argSchema property nor a secret name (secret names are UPPER_SNAKE_CASE); add '${p.name}' to argSchema.properties or correct the name`,
      });
    }
  }
  if (impl.auth?.type === 'oauth2ClientCredentials') hostCheck(impl.auth.tokenUrl, 'impl.auth.tokenUrl');
  if (impl.extractExpr !== undefined) {
    // The runner's own compiler, so what saves is exactly what runs (JSONPath without filters
    // or scripts; regexes that cannot backtrack catastrophically).
    try {
      compileExtractExpr(impl.extractExpr);
    } catch (e) {
      issues.push({ field: 'impl.extractExpr', message: (e as Error).message });
    }
  }
  return issues;
}

function checkContainer(impl: ContainerImplT): FieldIssue[] {
  const hasImage = impl.image !== undefined;
  const hasBuild = impl.build !== undefined;
  if (hasImage === hasBuild) {
    return [{ field: 'impl', message: 'a container tool needs exactly one of "image" (an existing image) or "build": "." (its own folder with a Dockerfile)' }];
  }
  return [];
}

function normalizeTags(tags: string[] | undefined): string[] {
  const out: string[] = [];
  for (const t of tags ?? []) {
    const v = t.normalize('NFC').trim();
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

/** Builds the ToolFile to write from a client's input, or throws INVALID_INPUT with all issues. */
export function prepareTool(input: ToolInput, ctx: PrepareContext): ToolFile {
  const issues: FieldIssue[] = [];
  const type = normalizeToolType(input.type);
  const impl = input.impl as Record<string, unknown>;
  const implSchema = type === 'function' ? FunctionImpl : type === 'http' ? HttpImpl : ContainerImpl;
  const implIssues = checkAgainst(implSchema, impl, 'impl');
  issues.push(...implIssues);
  const argSchema = input.argSchema ?? { type: 'object', properties: {} };
  const outputSchema = input.outputSchema ?? {};
  issues.push(...checkUserSchema(argSchema, 'argSchema'), ...checkUserSchema(outputSchema, 'outputSchema'));
  if (typeof argSchema === 'object' && argSchema !== null && 'type' in argSchema && argSchema['type'] !== 'object') {
    issues.push({ field: 'argSchema', message: 'must describe an object ("type": "object"), because arguments are passed by name' });
  }
  if (implIssues.length === 0) {
    if (type === 'http') issues.push(...checkHttp(impl as unknown as HttpImplT, argSchema, ctx.config));
    if (type === 'container') issues.push(...checkContainer(impl as ContainerImplT));
  }
  if (issues.length) throw invalid(issues);

  const file: ToolFile = {
    schemaVersion: SCHEMA_VERSION,
    toolID: ctx.existing?.toolID ?? uuidv7(),
    bundleID: ctx.bundleID,
    slug: ctx.slug,
    version: ctx.version,
    displayName: input.displayName?.trim() || ctx.slug,
    description: input.description ?? '',
    type,
    isEnabled: input.isEnabled ?? ctx.existing?.isEnabled ?? true,
    isBuiltIn: false,
    tags: normalizeTags(input.tags),
    safety: input.safety ?? defaultSafety(type, impl),
    argSchema,
    outputSchema,
    impl: impl as ToolFile['impl'],
    card: input.card ?? { enabled: true },
    limits: input.limits ?? {},
    createdAt: ctx.existing?.createdAt ?? ctx.now,
    modifiedAt: ctx.now,
  };
  return file;
}

/** Checks and NFC-normalises a slug/version pair from a path or body; throws INVALID_INPUT. */
export function checkPair(slug: unknown, version: unknown): { slug: string; version: string } {
  const s = checkSlug(slug);
  const v = checkVersion(version);
  const issues: FieldIssue[] = [];
  if (!s.ok) issues.push({ field: 'slug', message: s.message! });
  if (!v.ok) issues.push({ field: 'version', message: v.message! });
  if (issues.length) throw invalid(issues);
  return { slug: s.value, version: v.value };
}
