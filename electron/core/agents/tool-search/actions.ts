/**
 * What a task asks to do, as one of a few action classes (read, list, create, update, delete,
 * send, search), for the query and for each tool. A tool's class comes from the first verb of its
 * name (REST names say it: `pulls-list`, `issues-update`, `post-charges`; a method in front is
 * the HTTP method), else of its title. A query's from its first verb, which may be a task verb
 * no tool says ("close", "archive", "star" are updates; "cancel" a delete). Generic domain
 * knowledge of CRUD APIs, never built from the query set.
 */
import { stem } from './stem.js';

export const Action = { None: 0, Read: 1, List: 2, Create: 3, Update: 4, Delete: 5, Send: 6, Search: 7 } as const;
export type Action = (typeof Action)[keyof typeof Action];
type Verb = Exclude<Action, 0>;
/** Actions are the numbers 0 … ACTION_COUNT − 1. */
export const ACTION_COUNT = 8;

/** Words of tool names and titles, and of tasks, that say the action outright. */
const VERBS: Readonly<Record<Verb, string>> = {
  [Action.Read]: 'get read fetch retrieve show view display describe obtain download export',
  [Action.List]: 'list enumerate browse',
  [Action.Create]: 'create add new make insert register put upload post import generate',
  [Action.Update]: 'update edit change modify patch set rename replace alter seek skip pause resume',
  [Action.Delete]: 'delete remove destroy erase drop purge trash',
  [Action.Send]: 'send publish deliver dispatch notify',
  [Action.Search]: 'search find lookup query filter',
};

/**
 * Task verbs tools rarely say, with the class they mean: they also widen the query to that
 * class's verbs (at ACTION_WEIGHT), so "close issue 12" reaches issues-update.
 */
const TASK_VERBS: Readonly<Record<Verb, string>> = {
  [Action.Read]: 'see look check',
  [Action.List]: 'all recent',
  [Action.Create]: 'file buy open start schedule book',
  [Action.Update]: 'close reopen archive unarchive star unstar mark move assign rename resize scale enable disable turn toggle switch complete finish approve',
  [Action.Delete]: 'cancel unsubscribe revoke unfollow clear empty',
  [Action.Send]: 'tweet reply forward share invite',
  [Action.Search]: 'locate',
};

/** The words a task verb of a class is widened to: the class's plainest verbs. */
const CLASS_WORDS: Readonly<Record<Verb, string>> = {
  [Action.Read]: 'get',
  [Action.List]: 'list',
  [Action.Create]: 'create add',
  [Action.Update]: 'update edit modify patch',
  [Action.Delete]: 'delete remove',
  [Action.Send]: 'send',
  [Action.Search]: 'search',
};

export const ACTION_WEIGHT = 0.4;

function table(source: Readonly<Record<number, string>>): Map<string, Action> {
  const out = new Map<string, Action>();
  for (const [action, words] of Object.entries(source))
    for (const word of words.split(' ')) if (!out.has(stem(word))) out.set(stem(word), Number(action) as Action);
  return out;
}

const TOOL_VERBS = table(VERBS);
const QUERY_VERBS = new Map([...table(TASK_VERBS), ...TOOL_VERBS]);
const WIDENED = new Map<string, string[]>(
  [...table(TASK_VERBS)].filter(([term]) => !TOOL_VERBS.has(term)).map(([term, action]) => [term, CLASS_WORDS[action as Verb].split(' ').map(stem)]),
);

/** The action of a tool, from its name's terms, else its title's. */
export function toolAction(nameTerms: readonly string[], titleTerms: readonly string[]): Action {
  for (const terms of [nameTerms, titleTerms])
    for (const term of terms) {
      const action = TOOL_VERBS.get(term);
      if (action !== undefined) return action;
    }
  return Action.None;
}

/** Two-word task verbs whose first word alone means something else ("set" is an update). */
const PHRASAL_VERBS: readonly (readonly [RegExp, Action])[] = [
  [/\b(set|sign|spin|stand)\s+up\b/i, Action.Create],
  [/\b(look|pull)\s+up\b/i, Action.Read],
  [/\b(turn|switch)\s+(on|off)\b/i, Action.Update],
  [/\b(get|take)\s+rid\b/i, Action.Delete],
];

/**
 * The action of a task — a phrasal verb it says, else its first word that names one — and that
 * word's term, the only word widened to its class's verbs ("file a bug" files; "read the file"
 * does not).
 */
export function queryAction(text: string, terms: readonly string[]): { action: Action; verb: string | undefined } {
  for (const [pattern, action] of PHRASAL_VERBS) if (pattern.test(text)) return { action, verb: undefined };
  for (const term of terms) {
    const action = QUERY_VERBS.get(term);
    if (action !== undefined) return { action, verb: term };
  }
  return { action: Action.None, verb: undefined };
}

/** The class verbs a task verb stands for ("close" → update, edit, …), or none. */
export function widenedVerbs(term: string): readonly string[] {
  return WIDENED.get(term) ?? [];
}

/** Read, list and search all look things up; create and send both make something new. */
const FAMILY: Readonly<Record<Action, number>> = {
  [Action.None]: 0,
  [Action.Read]: 1,
  [Action.List]: 1,
  [Action.Search]: 1,
  [Action.Create]: 2,
  [Action.Send]: 2,
  [Action.Update]: 3,
  [Action.Delete]: 4,
};

/** 1 when the tool does what the task asks, 0.5 when it does something of the same family, else 0. */
export function actionAgreement(query: Action, tool: Action): number {
  if (query === Action.None || tool === Action.None) return 0;
  if (query === tool) return 1;
  return FAMILY[query] === FAMILY[tool] ? 0.5 : 0;
}

/** Phrases whose words are all filler but which ask for something: "who am I" is the signed-in user. */
const PHRASES: readonly (readonly [RegExp, string])[] = [[/\bwho\s+am\s+i\b/i, 'authenticated user']];

export function taskPhraseWords(text: string): string[] {
  return PHRASES.filter(([pattern]) => pattern.test(text)).flatMap(([, words]) => words.split(' '));
}
