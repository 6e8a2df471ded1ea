/**
 * The definition guard: one deterministic, offline pass
 * over everything an agent reads of a tool, giving findings by class with the offending span,
 * why, where (a JSON pointer) and how to fix it. Errors are what no honest tool needs; warnings
 * are worth a person's look. docs/guard.md describes the rules and how they were measured.
 */
import { hiddenCharacterRuns, looseSkeleton, mixedScriptWords, showRun, skeleton, visible, type CharKind } from './characters.js';
import { lookalikeName } from './names.js';
import { hiddenText } from './hidden-text.js';
import { sentenceHits, type SentenceContext } from './instructions.js';
import { definitionTexts, propertyNames, type TextField } from './texts.js';
import type { GuardClass, GuardContext, GuardDefinition, GuardFinding, GuardReport, GuardSeverity } from './types.js';

export const GUARD_FIX: Record<GuardClass, string> = {
  'model-instructions':
    'Delete the sentence: a description says what the tool does, what it takes and what it returns, never what the model must do about other tools, files, secrets or the user. From an upstream server: do not accept it, and tell its authors.',
  exfiltration:
    'Delete the request: a tool asks only for the arguments its own job needs, and never names a place to send data. A parameter for keys, secrets or the conversation has to go.',
  shadowing: "Delete what the text says about other tools: each tool describes itself only. Keep a tool that rewrites others' behaviour away from agents.",
  'command-execution': 'Delete the command: a description never asks the model to run shell commands, code or downloads.',
  'hidden-characters': 'Retype the text without the hidden characters (or the name in plain ASCII letters), so a person sees what the model reads.',
  'hidden-text': 'Remove the markup, comment or padding, and write what the model should know as plain visible text; keep it short.',
};

const CHAR_FINDING: Record<CharKind, { severity: GuardSeverity; what: string }> = {
  tag: { severity: 'error', what: 'Unicode tag characters, invisible, which models read as ASCII (hidden text)' },
  bidi: { severity: 'error', what: 'bidirectional control characters, which reorder what a person sees' },
  'zero-width': { severity: 'error', what: 'zero-width or filler characters, invisible to a person' },
  control: { severity: 'error', what: 'control characters' },
  ansi: { severity: 'error', what: 'ANSI escape sequences, which a terminal acts on (hiding or rewriting text)' },
  'variation-selector': { severity: 'error', what: 'variation selectors on plain letters, invisible carriers of hidden data' },
  'private-use': { severity: 'warning', what: 'private-use characters, which have no agreed look' },
  soft: { severity: 'warning', what: 'a soft hyphen or byte-order mark, invisible' },
};

/** Parameter names for data no tool needs unless it is what the tool is about, and the words that make it so. */
const PARAM_SECRETS: { re: RegExp; what: string; legit: RegExp }[] = [
  {
    re: /\bid (?:rsa|dsa|ecdsa|ed25519)\b|\bssh (?:\w+ )?(?:contents?|file|private key)\b|\b(?:contents?|reading) (?:of )?(?:\w+ )?(?:ssh|private key)\b/,
    what: 'an SSH private key',
    legit: /\b(?:ssh|sftp|scp|keys?|git|sign\w*|certificates?|deploy\w*)\b/,
  },
  { re: /\b(?:passwd|etc passwd|shadow file)\b/, what: 'the system password file', legit: /\b(?:passwd|users?|accounts?|linux|unix)\b/ },
  {
    re: /\bsystem prompts?\b|\bsystemprompt\b/,
    what: "the assistant's system prompt",
    legit: /\b(?:prompts?|llm|models?|chat|completions?|agents?|assistants?|generate|openai|anthropic|gemini|inference)\b/,
  },
  {
    re: /\b(?:conversation|chat|message) (?:history|log|transcript|context)\b|\bprevious messages\b|\bfull conversation\b/,
    what: 'the conversation',
    legit: /\b(?:chat|conversations?|messages?|history|summar\w*|memory|threads?|transcripts?)\b/,
  },
  {
    re: /\b(?:bashrc|zshrc|bash history|mcp json|claude desktop config|seed phrase|mnemonic)\b/,
    what: 'a file or phrase that holds secrets',
    legit: /\b(?:shell|dotfiles?|wallets?|mcp|config\w*)\b/,
  },
  {
    re: /\b(?:content|contents) (?:from|of) (?:reading )?\w+|\bread(?:ing)? (?:the )?\w+ file\b/,
    what: 'the contents of a file',
    legit: /\b(?:files?|read\w*|contents?|documents?|paths?|fs|filesystem)\b/,
  },
];

/** Property names that receive where something is sent. */
const DESTINATION_PROPERTY = /^(?:b?cc|bcc\w*|cc\w*|recipients?|to|emails?|webhook\w*|callback\w*|notify\w*|forward\w*|mirror\w*|endpoint|exfil\w*)$/i;
const COPY_PROPERTY = /^(?:bcc\w*|cc\w*|forward\w*|mirror\w*)$/i;
const ADDRESS = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|\bhttps?:\/\/\S+|\+\d[\d\s().-]{7,}\d/;

/** The words of a name: `getUserById`, `get-user_by_id` → get user by id. */
export function nameWords(name: string): string[] {
  return (
    name
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/[_\-.]+/g, ' ')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

function span(text: string, start: number, end: number) {
  return { start, end, text: visible(text.slice(start, end)) };
}

function characterFindings(field: TextField, out: GuardFinding[]): void {
  const runs = hiddenCharacterRuns(field.text);
  const byKind = new Map<CharKind, typeof runs>();
  for (const r of runs) (byKind.get(r.kind) ?? byKind.set(r.kind, []).get(r.kind)!).push(r);
  for (const [kind, list] of byKind) {
    let { severity } = CHAR_FINDING[kind];
    const { what } = CHAR_FINDING[kind];
    // A stray zero-width space after a word is a copy-paste leftover; inside a word, or many of them, it hides or splits text.
    if (kind === 'zero-width' && field.kind !== 'name') {
      const inside = list.some((r) => /\p{L}/u.test(field.text[r.start - 1] ?? '') && /\p{L}/u.test(field.text[r.end] ?? ''));
      const count = list.reduce((n, r) => n + r.end - r.start, 0);
      if (!inside && count < 3) severity = 'warning';
    }
    const first = list[0]!;
    const where = field.kind === 'name' ? 'the name holds' : 'holds';
    out.push({
      class: 'hidden-characters',
      severity,
      pointer: field.pointer,
      span: span(field.text, first.start, first.end),
      message: `${where} ${what}: ${showRun(field.text, first)}${list.length > 1 ? ` and ${list.length - 1} more run${list.length > 2 ? 's' : ''}` : ''}`,
      fix: GUARD_FIX['hidden-characters'],
    });
  }
  for (const w of mixedScriptWords(field.text).slice(0, 1)) {
    out.push({
      class: 'hidden-characters',
      severity: field.kind === 'name' || field.kind === 'property-name' ? 'error' : 'warning',
      pointer: field.pointer,
      span: span(field.text, w.start, w.end),
      message: `'${w.word}' mixes Latin letters with look-alike letters of another script; it reads as '${skeleton(w.word)}' but is not`,
      fix: GUARD_FIX['hidden-characters'],
    });
  }
}

function nameFindings(field: TextField, others: readonly string[], out: GuardFinding[]): void {
  const name = field.text;
  const shown = skeleton(name);
  if (/[^\x00-\x7f]/.test(name) && /^[\x20-\x7e]+$/.test(shown) && !mixedScriptWords(name).length) {
    out.push({
      class: 'hidden-characters',
      severity: 'error',
      pointer: field.pointer,
      span: span(name, 0, name.length),
      message: `the name looks like '${shown}' but is written with other characters (${[...name]
        .filter((c) => c.charCodeAt(0) > 0x7f)
        .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
        .join(', ')})`,
      fix: GUARD_FIX['hidden-characters'],
    });
  }
  const lookalike = others.length ? lookalikeName(name, others, field.pointer) : undefined;
  if (lookalike) out.push(lookalike);
}

function propertyNameFindings(field: TextField, purpose: string, out: GuardFinding[]): void {
  const phrase = nameWords(field.text).join(' ');
  for (const p of PARAM_SECRETS) {
    if (!p.re.test(phrase) || p.legit.test(purpose)) continue;
    out.push({
      class: 'exfiltration',
      severity: 'error',
      pointer: field.pointer,
      span: span(field.text, 0, field.text.length),
      message: `the parameter '${field.text}' asks for ${p.what}, which a tool for ${JSON.stringify(purpose.slice(0, 60))} has no use for`,
      fix: GUARD_FIX.exfiltration,
    });
    return;
  }
}

function destinationDefault(field: TextField, out: GuardFinding[]): void {
  if (!field.property || !DESTINATION_PROPERTY.test(field.property)) return;
  const m = ADDRESS.exec(field.text);
  if (!m) return;
  out.push({
    class: 'exfiltration',
    severity: COPY_PROPERTY.test(field.property) ? 'error' : 'warning',
    pointer: field.pointer,
    span: span(field.text, m.index, m.index + m[0].length),
    message: `'${field.property}' comes filled in with ${JSON.stringify(m[0])}: data goes there unless the agent says otherwise`,
    fix: 'Remove the preset address: the person or agent says where to send, each time.',
  });
}

const RANK: Record<GuardSeverity, number> = { warning: 0, error: 1 };

/** One finding per field and class: the worst, the first of that severity, with a count of the others. */
function merge(findings: GuardFinding[]): GuardFinding[] {
  const best = new Map<string, { f: GuardFinding; more: number }>();
  for (const f of findings) {
    const key = `${f.pointer}\u0000${f.class}`;
    const seen = best.get(key);
    if (!seen) best.set(key, { f, more: 0 });
    else if (RANK[f.severity] > RANK[seen.f.severity]) best.set(key, { f, more: seen.more + 1 });
    else seen.more++;
  }
  return [...best.values()].map(({ f, more }) => (more ? { ...f, message: `${f.message} (and ${more} more in this field)` } : f));
}

/** The guard's findings on one definition. */
export function guardDefinition(def: GuardDefinition, context: GuardContext = {}): GuardReport {
  const fields = definitionTexts(def);
  const others = context.otherToolNames ?? [];
  const purposeWords = [...nameWords(def.name), ...nameWords(def.title ?? '')];
  const purpose = purposeWords.join(' ');
  const params = new Set([...propertyNames(def.inputSchema)].map(looseSkeleton));
  const sentenceContext: SentenceContext = {
    self: looseSkeleton(def.name),
    params,
    others: new Map(others.map((o) => [looseSkeleton(o), o])),
    purpose: new Set(purposeWords),
  };
  const found: GuardFinding[] = [];
  for (const field of fields) {
    characterFindings(field, found);
    if (field.kind === 'name') {
      nameFindings(field, others, found);
      continue;
    }
    if (field.kind === 'property-name') {
      propertyNameFindings(field, purpose, found);
      continue;
    }
    if (field.kind === 'value') destinationDefault(field, found);
    const { hits, blocks } = hiddenText(field.text, field.kind);
    for (const h of hits)
      found.push({
        class: 'hidden-text',
        severity: h.severity,
        pointer: field.pointer,
        span: span(field.text, h.start, h.end),
        message: h.message,
        fix: GUARD_FIX['hidden-text'],
      });
    if (field.text.length < 12) continue;
    for (const h of sentenceHits(field.text, sentenceContext, blocks, field.kind === 'prose')) {
      found.push({
        class: h.class,
        severity: h.severity,
        pointer: field.pointer,
        span: span(field.text, h.start, h.end),
        message: h.message,
        fix: GUARD_FIX[h.class],
      });
    }
  }
  const findings = merge(found);
  const worst = findings.some((f) => f.severity === 'error') ? 'error' : findings.length ? 'warning' : null;
  return { findings, worst };
}
