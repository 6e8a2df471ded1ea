/**
 * Where a sentence names a tool, and whether that tool is this one or another: backquoted or
 * quoted identifiers next to a call verb or the word "tool", `the X tool`, `call x_y`, `x_y is
 * invoked`, `x_y()`, and the names of the tools the agent sees beside this one.
 */
import { looseSkeleton } from './characters.js';
import { lowered } from './lexicon.js';

export interface ToolRef {
  name: string;
  start: number;
  end: number;
  /** Not this tool, nor one of its parameters. */
  other: boolean;
  /** Named as what is called (`use x`, `call x`), not as what is talked about (`when x is invoked`, `the x tool has been…`). */
  called: boolean;
}

export interface RefContext {
  /** This tool's name, loose (looseSkeleton). */
  self: string;
  /** This tool's parameter names, loose. */
  params: ReadonlySet<string>;
  /** Other tools' names, loose → as written. */
  others: ReadonlyMap<string, string>;
}

const FILE_LIKE = /\.(?:json|txt|md|py|js|ts|ya?ml|log|csv|env|sh|pem|key|html?|xml|cfg|conf|ini|toml|lock)$/i;
const IDENT = String.raw`[A-Za-z][\w.-]{0,63}`;
const SNAKE = String.raw`[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+`;

/** Patterns on the lowered sentence, each with whether it names the tool as the thing called. */
const PATTERNS: [RegExp, boolean][] = [
  // `get_me`, 'web_search' or "fetch" after a call verb, or after the word tool
  [
    new RegExp(
      String.raw`\b(?:call|calls|calling|use|using|invoke|invoking|run|running|trigger|triggering)\s+(?:the\s+)?(?:new\s+)?(?:secure\s+)?(?:tool\s+)?[\`'"‘“]{1,2}(${IDENT})[\`'"’”]`,
      'g',
    ),
    true,
  ],
  [new RegExp(String.raw`\btool\s+[\`'"‘“](${IDENT})[\`'"’”]`, 'g'), false],
  [new RegExp(String.raw`[\`'"‘“](${IDENT})[\`'"’”]\s+(?:tool|function|command)\b`, 'g'), false],
  // call the fetch function; the search tool, result of check tool; the fetch_all function
  [new RegExp(String.raw`\b(?:call|use|invoke|calling|using|invoking)\s+the\s+(${IDENT})\s+(?:tool|function)\b`, 'g'), true],
  [new RegExp(String.raw`\b(?:the|of|for|by|from)\s+(${IDENT})\s+tool\b`, 'g'), false],
  [new RegExp(String.raw`\b(?:the|of|for|by|from)\s+(${SNAKE})\s+function\b`, 'g'), false],
  // call get_yahoo_finance_news, using check tool
  [new RegExp(String.raw`\b(?:call|calls|calling|use|using|invoke|invoking|trigger|triggering)\s+(?:the\s+)?(${SNAKE})\b`, 'g'), true],
  [new RegExp(String.raw`\b(?:using|after using|call|calling)\s+(${IDENT})\s+tool\b`, 'g'), true],
  [new RegExp(String.raw`\b(${SNAKE})\s+tool\b`, 'g'), false],
  // send_message is invoked
  [new RegExp(String.raw`\b(${SNAKE})\s+(?:is|gets|was|are|has been)\s+(?:invoked|called|used|run|executed)\b`, 'g'), false],
  // export_users_csv()
  [new RegExp(String.raw`\b(${SNAKE})\(\)`, 'g'), true],
];

const NOT_TOOLS = new Set([
  'this',
  'that',
  'same',
  'new',
  'other',
  'following',
  'above',
  'below',
  'following',
  'secure',
  'mcp',
  'a',
  'an',
  'any',
  'each',
  'every',
]);

/** Tool names in `sentence` (offsets relative to it). */
export function toolRefs(sentence: string, ctx: RefContext): ToolRef[] {
  const out: ToolRef[] = [];
  const at = new Map<number, ToolRef>();
  const low = lowered(sentence);
  const add = (start: number, length: number, called: boolean) => {
    const name = sentence.slice(start, start + length);
    const known = at.get(start);
    if (known) {
      known.called ||= called;
      return;
    }
    const loose = looseSkeleton(name);
    if (!loose || NOT_TOOLS.has(name.toLowerCase()) || FILE_LIKE.test(name) || /^\d/.test(name)) return;
    const ref = { name, start, end: start + length, other: loose !== ctx.self && !ctx.params.has(loose), called };
    at.set(start, ref);
    out.push(ref);
  };
  for (const [re, called] of PATTERNS) {
    for (const m of low.matchAll(re)) add(m.index + m[0].indexOf(m[1]!), m[1]!.length, called);
  }
  if (ctx.others.size) {
    for (const m of sentence.matchAll(/[A-Za-z][\w.-]{2,63}/g)) {
      // A one-word name ("search") is too common a word to count unless it is quoted or called a tool.
      if (ctx.others.has(looseSkeleton(m[0])) && /[_.-]|[a-z][A-Z]/.test(m[0])) add(m.index, m[0].length, false);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The sentence with the tool names blanked out, so `replace_brand` is not read as "replace". */
export function maskRefs(sentence: string, refs: readonly ToolRef[]): string {
  let out = '';
  let from = 0;
  for (const r of refs) {
    if (r.start < from) continue;
    out += sentence.slice(from, r.start) + '\u2022'.repeat(r.end - r.start);
    from = r.end;
  }
  return out + sentence.slice(from);
}
