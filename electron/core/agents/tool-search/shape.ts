/**
 * What tells near-duplicate operations apart (docs/tool-search.md, issue 34 idea 1): the shape of
 * an operation — does it page through a collection or act on one thing, is it deprecated — and
 * the shape of a task — a question rather than an order, many things or one. The re-ranker
 * (features.ts) weighs them: "which pods are running" is a list, not the create or delete of a
 * pod that says the same words; "status of deployment dpl_123" is the get of one, not the list.
 * Generic knowledge of REST APIs and of how people ask, never built from a query set.
 */
import type { ToolSearchEntry } from './entry.js';
import { Action } from './actions.js';
import { FEATURE } from './features.js';

/** Arguments that page through a collection: an operation taking one lists. */
const PAGING = new Set(
  'page perpage pagesize pagetoken pagenumber pagecursor limit offset cursor marker continue maxresults maxitems nexttoken startingafter endingbefore after before since pagination'.split(
    ' ',
  ),
);
/** A title or description opening like this says the operation returns many. */
const COLLECTION_OPENING =
  /^\s*(lists?|get (a |the )?list|retrieves? (a |the )?(list|page)|returns? (a |the )?(list|page)|get all|retrieves? all|returns? all|search|query|browse|enumerate)\b/i;
const DEPRECATED = /deprecat/i;
/** An argument that names one thing: an id, a key, a slug. */
const ONE_THING = /(^|[_-])(id|uuid|key|slug|sid|number|num)$|[a-z](Id|ID|Key|Sid|Uuid)$|^name$/;

export const ToolShape = { Pages: 1, CollectionText: 2, Deprecated: 4, EndsWithParameter: 8 } as const;

const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The tool-side flags (ToolShape bits) and how many of its arguments name one thing. */
export function toolShape(entry: ToolSearchEntry): { flags: number; oneThingArgs: number } {
  const args = entry.argNames.map(plain);
  let flags = 0;
  if (args.some((a) => PAGING.has(a))) flags |= ToolShape.Pages;
  if (COLLECTION_OPENING.test(entry.title) || COLLECTION_OPENING.test(entry.description.slice(0, 80))) flags |= ToolShape.CollectionText;
  if (DEPRECATED.test(entry.name) || DEPRECATED.test(entry.title) || DEPRECATED.test(entry.description.slice(0, 300))) flags |= ToolShape.Deprecated;
  // A REST name ending in a path parameter (`get-v3-projects-id-issues-issue-id`, `…-bounces-email`) acts on one.
  const parts = entry.name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = parts.at(-1) ?? '';
  const lastTwo = parts.slice(-2).join('');
  if (parts.length > 1 && (last === 'id' || (args.length && (args.includes(last) || args.includes(lastTwo))))) flags |= ToolShape.EndsWithParameter;
  const oneThingArgs = entry.argNames.filter((a) => ONE_THING.test(a)).length;
  return { flags, oneThingArgs };
}

export interface QueryShape {
  /** Asked as a question ("which pods …", "is my deploy ready"), not an order. */
  question: boolean;
  /** How strongly it asks for many: "all", "every", "which", "how many", plural nouns. */
  many: number;
  /** It names one thing: a number or id, a quoted name, "named …". */
  one: boolean;
}

const QUESTION = /^\s*(what|what's|whats|which|how|is|are|was|were|has|have|does|do|did|who|whose|when|where|why|any|am|can)\b/i;
const MANY = /\b(all|every|each|list|lists|which|many|recent|latest|any|everything|everyone|whole)\b/gi;
const ONE = /\d|["'`][^"'`]+["'`]|\b(named|called|titled|this)\b/i;
/** Words ending in s that are not plurals. */
const NOT_PLURAL = /(ss|us|is|ous|ics|ws|news|status|series|always|its|this|was|has|does|yes|as)$/;

export function queryShape(text: string): QueryShape {
  const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
  let plurals = 0;
  for (const w of words) if (w.length > 3 && w.endsWith('s') && !w.endsWith("'s") && !NOT_PLURAL.test(w)) plurals++;
  return { question: QUESTION.test(text), many: (text.match(MANY)?.length ?? 0) + plurals, one: ONE.test(text) };
}

/** Every tool's shape, computed once at build, and the shape features of a (query, tool) pair. */
export class ToolShapes {
  private readonly flags: Uint8Array;
  private readonly oneThingArgs: Uint8Array;

  constructor(entries: readonly ToolSearchEntry[]) {
    this.flags = new Uint8Array(entries.length);
    this.oneThingArgs = new Uint8Array(entries.length);
    entries.forEach((entry, d) => {
      const { flags, oneThingArgs } = toolShape(entry);
      this.flags[d] = flags;
      this.oneThingArgs[d] = Math.min(255, oneThingArgs);
    });
  }

  /** Writes tool d's shape features, and their crossings with the task's, into its feature row. */
  fill(row: Float32Array, d: number, toolAction: Action, queryAction: Action, shape: QueryShape): void {
    const flags = this.flags[d]!;
    const lists = (flags & (ToolShape.Pages | ToolShape.CollectionText)) !== 0 || toolAction === Action.List;
    const asks = queryAction === Action.None || queryAction === Action.Read || queryAction === Action.List;
    row[FEATURE.toolPages] = flags & ToolShape.Pages ? 1 : 0;
    row[FEATURE.toolSaysMany] = flags & ToolShape.CollectionText ? 1 : 0;
    row[FEATURE.toolDeprecated] = flags & ToolShape.Deprecated ? 1 : 0;
    row[FEATURE.toolEndsWithParameter] = flags & ToolShape.EndsWithParameter ? 1 : 0;
    row[FEATURE.toolOneThingArgs] = this.oneThingArgs[d]!;
    row[FEATURE.toolAction] = toolAction;
    row[FEATURE.queryAction] = queryAction;
    row[FEATURE.queryQuestion] = shape.question ? 1 : 0;
    row[FEATURE.queryMany] = shape.many;
    row[FEATURE.queryOne] = shape.one ? 1 : 0;
    row[FEATURE.questionToolChanges] = shape.question && asks && toolAction >= Action.Create && toolAction <= Action.Send ? 1 : 0;
    row[FEATURE.manyToolLists] = shape.many > 0 && lists ? 1 : 0;
    row[FEATURE.oneToolLists] = shape.one && lists ? 1 : 0;
  }
}
