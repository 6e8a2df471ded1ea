/**
 * The output guard (docs/guard.md; seed 000: tool output is scrubbed of
 * action-like text before it reaches the model). A result's text on its way to an agent is
 * searched for what hides or acts: invisible, tag and bidirectional characters, control
 * characters, ANSI escape sequences, and markup that fakes a tool call or a conversation turn
 * (`<tool_call>`, `<|im_start|>`, `[TOOL_CALLS]`, `<function_calls>` …). `flag` leaves the text as
 * it is and says what is there; `strip` removes it and says what was removed. Orders addressed to
 * the model (the definition guard's sentence rules) are flagged in both modes, never removed:
 * cutting prose would change what the tool said.
 */
import { hiddenCharacterRuns, type CharKind } from './characters.js';
import { hiddenText } from './hidden-text.js';
import { sentenceHits, type SentenceContext } from './instructions.js';

export type OutputGuardMode = 'off' | 'flag' | 'strip';

export type OutputFindingKind =
  'tag-characters' | 'bidi-controls' | 'invisible-characters' | 'control-characters' | 'ansi-escapes' | 'tool-call-markup' | 'role-markup' | 'instructions';

export interface OutputFinding {
  kind: OutputFindingKind;
  count: number;
  /** The first one, shortened, invisible characters written out. */
  sample: string;
}

export interface OutputGuardNote {
  mode: 'flag' | 'strip';
  /** strip: what was taken out of the text agents receive. */
  removed: OutputFinding[];
  /** What is still there and worth the agent's (and a person's) caution. */
  flagged: OutputFinding[];
}

/** Characters removed in strip mode, by the kind the characters module gives them. */
const CHAR_KIND: Partial<Record<CharKind, OutputFindingKind>> = {
  tag: 'tag-characters',
  bidi: 'bidi-controls',
  'zero-width': 'invisible-characters',
  'variation-selector': 'invisible-characters',
  soft: 'invisible-characters',
  control: 'control-characters',
  ansi: 'ansi-escapes',
};

/** Markup of model formats that a tool's output has no business holding: it fakes a call or a turn. */
const TOOL_CALL_BLOCK =
  /<((?:antml:)?(?:tool_calls?|function_calls?|tool_use|tool_result|tool_response|function_results?|invoke))\b[^>]{0,200}>[\s\S]{0,20000}?<\/\1\s*>/gi;
const TOOL_CALL_TOKEN =
  /<\|(?:tool_calls?|tool_call_begin|tool_call_end|tool_calls_section_begin|tool_calls_section_end|python_tag|tool_response|call|return|constrain)\|>|\[(?:TOOL_CALLS|TOOL_RESULTS|\/TOOL_RESULTS|AVAILABLE_TOOLS|\/AVAILABLE_TOOLS)\]|<\/?(?:(?:antml:)?(?:tool_calls?|function_calls?|tool_use|invoke|parameter))\b[^>]{0,200}>|<function=[\w.-]{1,64}>/gi;
const ROLE_MARKUP =
  /<\|(?:im_start|im_end|im_sep|endoftext|eot_id|eom_id|start_header_id|end_header_id|begin_of_text|start|end|message|channel)\|>(?:(?:system|assistant|user|developer|tool)\b)?|<(?:start_of_turn|end_of_turn)>(?:(?:model|user|system)\b)?|<<\/?SYS>>|\[\/?INST\]|<\/?(?:system|assistant|developer)(?:[-_ ](?:message|prompt|instructions?))?>/gi;
/** JSON that looks like a model's call, inside a text: flagged, not cut (it may be data the tool was asked for). */
const TOOL_CALL_JSON = /"(?:tool_calls|function_call|tool_use)"\s*:\s*[[{]/;

/** Text read for orders to the model, at most, per string and per result: the sentence rules are linear but not free. */
const INSTRUCTION_SCAN_CHARS = 64 * 1024;

const NEUTRAL: SentenceContext = { self: '', params: new Set(), others: new Map(), purpose: new Set() };

const shorten = (s: string, max = 120) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const codepoints = (s: string) => [...s].map((c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`).join('');

class Findings {
  private readonly byKind = new Map<OutputFindingKind, OutputFinding>();
  add(kind: OutputFindingKind, sample: string, count = 1): void {
    const f = this.byKind.get(kind);
    if (f) f.count += count;
    else this.byKind.set(kind, { kind, count, sample });
  }
  list(): OutputFinding[] {
    return [...this.byKind.values()];
  }
}

interface Scan {
  removed: Findings;
  flagged: Findings;
  strip: boolean;
  /** Characters still to read for orders in this result. */
  budget: number;
}

/** One string: what is in it, and (strip) the string without it. */
function scrub(text: string, scan: Scan): string {
  let out = text;
  const markup = scan.strip ? scan.removed : scan.flagged;
  if (out.includes('<') || out.includes('[')) {
    out = out.replace(TOOL_CALL_BLOCK, (m) => (markup.add('tool-call-markup', shorten(m)), scan.strip ? '' : m));
    out = out.replace(TOOL_CALL_TOKEN, (m) => (markup.add('tool-call-markup', m), scan.strip ? '' : m));
    out = out.replace(ROLE_MARKUP, (m) => (markup.add('role-markup', m), scan.strip ? '' : m));
  }
  if (TOOL_CALL_JSON.test(out)) scan.flagged.add('tool-call-markup', shorten(TOOL_CALL_JSON.exec(out)![0]));
  const runs = hiddenCharacterRuns(out);
  if (runs.length) {
    let kept = '';
    let at = 0;
    for (const r of runs) {
      const kind = CHAR_KIND[r.kind];
      const part = out.slice(r.start, r.end);
      if (!kind) continue;
      (scan.strip ? scan.removed : scan.flagged).add(
        kind,
        r.kind === 'ansi' ? JSON.stringify(part).slice(1, -1) : codepoints(part),
        r.kind === 'ansi' ? 1 : [...part].length,
      );
      kept += out.slice(at, r.start);
      at = r.end;
    }
    if (scan.strip) out = kept + out.slice(at);
  }
  if (scan.budget > 0 && out.length >= 12) {
    const part = out.length > Math.min(scan.budget, INSTRUCTION_SCAN_CHARS) ? out.slice(0, Math.min(scan.budget, INSTRUCTION_SCAN_CHARS)) : out;
    scan.budget -= part.length;
    // A result has no business addressing the model at all: its warnings count too, but for a
    // command line without an order and self-promotion, which honest pages and logs are full of.
    const blocks = part.includes('<') ? hiddenText(part, 'prose').blocks : [];
    for (const h of sentenceHits(part, NEUTRAL, blocks)) {
      if (h.severity === 'error' || (h.class !== 'command-execution' && !h.promotion)) {
        scan.flagged.add('instructions', `${h.class}: ${shorten(part.slice(h.start, h.end))}`);
      }
    }
  }
  return out;
}

function walk(value: unknown, scan: Scan, depth: number): unknown {
  if (typeof value === 'string') return scrub(value, scan);
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => walk(v, scan, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = walk(v, scan, depth + 1);
  return out;
}

export interface GuardedOutput<T> {
  /** What agents receive: the same as given in flag mode, or when nothing was removed. */
  value: T;
  /** Absent when nothing was found (or the mode is off). */
  note?: OutputGuardNote;
}

/** Guards a result's value (a string, or JSON whose strings are read) for the given mode. */
export function guardOutput<T>(value: T, mode: OutputGuardMode, budget = 4 * INSTRUCTION_SCAN_CHARS): GuardedOutput<T> {
  if (mode === 'off') return { value };
  const scan: Scan = { removed: new Findings(), flagged: new Findings(), strip: mode === 'strip', budget };
  const guarded = walk(value, scan, 0) as T;
  const removed = scan.removed.list();
  const flagged = scan.flagged.list();
  if (!removed.length && !flagged.length) return { value };
  return { value: removed.length ? guarded : value, note: { mode, removed, flagged } };
}

/** Two notes of one result (its value and its other content) as one. */
export function mergeNotes(a: OutputGuardNote | undefined, b: OutputGuardNote | undefined): OutputGuardNote | undefined {
  if (!a || !b) return a ?? b;
  const join = (x: OutputFinding[], y: OutputFinding[]) => {
    const m = new Map(x.map((f) => [f.kind, { ...f }]));
    for (const f of y) {
      const seen = m.get(f.kind);
      if (seen) seen.count += f.count;
      else m.set(f.kind, { ...f });
    }
    return [...m.values()];
  };
  return { mode: a.mode, removed: join(a.removed, b.removed), flagged: join(a.flagged, b.flagged) };
}
