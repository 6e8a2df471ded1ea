/**
 * What tells an API's operations apart when they say the same words (issue 34, the near-duplicate
 * misses): the thing an operation acts on, the last resource word of its name, and whether it is
 * written as one or many (`get-feature-flag` beside `get-feature-flags`) against how the task
 * writes it ("show the flag" / "show the flags"); how many path parameters the name holds and how
 * deep its path is (`read-core-v1-node` beside `read-core-v1-node-status`); whether its version is
 * older than the newest of its API (`v1` beside `v2`, `v1alpha2` beside `v1`); and whether the task
 * asks for the details of one thing ("details of", "status of", "info about"). The re-ranker
 * (features.ts) weighs them. Generic knowledge of REST names and of how people ask, never built
 * from a query set.
 */
import type { ToolSearchEntry } from './entry.js';
import type { Analyzer } from './analyze.js';
import { FEATURE } from './features.js';

/** A name's first part when it is an HTTP method or a verb: not a resource word. */
const VERB_PART =
  /^(get|list|create|update|delete|post|put|patch|head|read|replace|watch|connect|add|remove|set|fetch|retrieve|new|search|find|query|describe|modify|start|stop|cancel|send|upload|download|edit|do|run|check)$/;
const VERSION = /^v(\d+)(alpha|beta)?(\d*)$/;
/** Name parts that qualify a path rather than name what it acts on. */
const FILLER_PART = /^(ids|by|for|of|in|on|to|the|a|an|all|with|and|or|my|me|instance|collection|api|rest)$/;
/** Words ending in s that are not plurals. */
const NOT_PLURAL = /(ss|us|is|ous|ics|ws|news|status|series|always|its|this|was|has|does|yes|as|data|settings?)$/;
const DETAILS = /\b(details?|info|information|about|describe|status of|specific|single|particular|by id|with id|profile of|settings of|metadata)\b/i;

export const isPlural = (word: string): boolean =>
  word.length > 3 && (word.endsWith('ies') || (word.endsWith('s') && !NOT_PLURAL.test(word))) && !word.endsWith("'s");

/** A version mark's order: v2 > v1 > v1beta2 > v1beta1 > v1alpha1. */
function versionOf(part: string): number | undefined {
  const m = VERSION.exec(part);
  if (!m) return undefined;
  const pre = m[2] === 'alpha' ? 0.5 : m[2] === 'beta' ? 0.25 : 0;
  return Number(m[1]) - pre + (m[2] ? Number(m[3] || 0) * 0.01 : 0);
}

export interface ToolOperation {
  /** The stemmed last resource word of the name ('' when none). */
  object: string;
  objectPlural: boolean;
  pathParameters: number;
  /** Resource words of the name (neither verb, version, parameter nor filler). */
  depth: number;
  version: number | undefined;
  unstable: boolean;
}

export function toolOperation(entry: ToolSearchEntry, analyzer: Analyzer): ToolOperation {
  const name = entry.name.toLowerCase();
  const prefix = `${entry.bundle.toLowerCase()}_`; // `aws-s3_delete-bucket`
  const parts = (name.startsWith(prefix) ? name.slice(prefix.length) : name).split(/[^a-z0-9]+/).filter(Boolean);
  const args = new Set(entry.argNames.map((a) => a.toLowerCase().replace(/[^a-z0-9]/g, '')));
  let pathParameters = 0;
  let version: number | undefined;
  let unstable = false;
  const resources: string[] = [];
  for (const [i, part] of parts.entries()) {
    const v = versionOf(part);
    if (v !== undefined) {
      version = Math.max(version ?? -Infinity, v);
      unstable ||= /alpha|beta/.test(part);
      continue;
    }
    if (VERB_PART.test(part)) continue;
    const joined = part + (parts[i + 1] ?? '');
    if (part === 'id' || args.has(part) || (i > 0 && args.has(parts[i - 1]! + part)) || (args.has(joined) && i + 1 < parts.length)) {
      pathParameters++;
      continue;
    }
    if (FILLER_PART.test(part) || /\d/.test(part)) continue;
    resources.push(part);
  }
  const last = resources.at(-1) ?? '';
  return {
    object: last ? (analyzer.terms(last)[0] ?? '') : '',
    objectPlural: isPlural(last),
    pathParameters,
    depth: resources.length,
    version,
    unstable,
  };
}

export interface QueryOperation {
  /** Per term of the query, whether it was written as many. */
  plural: Map<string, boolean>;
  /** Asks for the details of one thing. */
  details: boolean;
}

export function queryOperation(text: string, words: readonly { word: string; term: string }[]): QueryOperation {
  const writtenAsMany = new Map<string, boolean>();
  for (const { word, term } of words) if (!writtenAsMany.has(term)) writtenAsMany.set(term, isPlural(word));
  return { plural: writtenAsMany, details: DETAILS.test(text) };
}

/** Every tool's operation, read once at build, and the operation features of a (query, tool) pair. */
export class ToolOperations {
  private readonly operations: ToolOperation[];
  /** Per tool, whether its API has a newer version mark than its own. */
  private readonly older: Uint8Array;

  constructor(entries: readonly ToolSearchEntry[], analyzer: Analyzer) {
    this.operations = entries.map((e) => toolOperation(e, analyzer));
    const newest = new Map<string, number>();
    entries.forEach((e, d) => {
      const v = this.operations[d]!.version;
      if (v !== undefined && !this.operations[d]!.unstable) newest.set(e.bundle, Math.max(newest.get(e.bundle) ?? -Infinity, v));
    });
    this.older = Uint8Array.from(entries, (e, d) => {
      const v = this.operations[d]!.version;
      const top = newest.get(e.bundle);
      return v !== undefined && top !== undefined && v < top ? 1 : 0;
    });
  }

  /** Writes tool d's operation features, and their crossings with the task's, into its feature row. */
  fill(row: Float32Array, d: number, query: QueryOperation, oneNamed: boolean, endsWithParameter: boolean): void {
    const op = this.operations[d]!;
    const said = op.object ? query.plural.get(op.object) : undefined;
    row[FEATURE.objectNumberAgrees] = said === undefined ? 0 : said === op.objectPlural ? 1 : -1;
    row[FEATURE.toolObjectPlural] = op.objectPlural ? 1 : 0;
    row[FEATURE.toolPathParameters] = op.pathParameters;
    row[FEATURE.toolDepth] = op.depth;
    row[FEATURE.toolOlderVersion] = this.older[d]!;
    row[FEATURE.toolUnstableVersion] = op.unstable ? 1 : 0;
    row[FEATURE.queryDetails] = query.details ? 1 : 0;
    row[FEATURE.oneAskedToolActsOnOne] = (query.details || oneNamed) && (endsWithParameter || (op.pathParameters > 0 && !op.objectPlural)) ? 1 : 0;
  }
}
