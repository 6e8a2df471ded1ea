/**
 * Names that pass for another tool's: equal once invisible and look-alike characters are set
 * aside (an error: an agent cannot tell them apart), or once case and separators are (a warning:
 * `Get_User` beside `get_user`). Checked against a whole set at once through a skeleton index.
 */
import { looseSkeleton, skeleton, visible } from './characters.js';
import type { GuardFinding } from './types.js';

const FIX = 'Rename the tool so its name says what sets it apart, or keep only one of the two.';

/** The finding for `name` against `others` (the first look-alike found), or undefined. */
export function lookalikeName(name: string, others: Iterable<string>, pointer = '/name'): GuardFinding | undefined {
  const shown = skeleton(name);
  const loose = looseSkeleton(name);
  let warning: GuardFinding | undefined;
  for (const o of others) {
    if (o === name) continue;
    const span = { start: 0, end: name.length, text: visible(name) };
    if (skeleton(o) === shown && o.toLowerCase() !== name.toLowerCase()) {
      return {
        class: 'shadowing',
        severity: 'error',
        pointer,
        span,
        message: `the name differs from another tool's, '${visible(o)}', only by invisible or look-alike characters: an agent cannot tell them apart`,
        fix: FIX,
      };
    }
    if (!warning && looseSkeleton(o) === loose) {
      warning = {
        class: 'shadowing',
        severity: 'warning',
        pointer,
        span,
        message: `the name differs from another tool's, '${o}', only by case or separators: one may stand in for the other`,
        fix: FIX,
      };
    }
  }
  return warning;
}

/** An index of names by loose skeleton, so each name is compared only with the few that may look like it. */
export class NameIndex {
  private readonly byLoose = new Map<string, string[]>();

  constructor(names: Iterable<string>) {
    for (const n of names) {
      const key = looseSkeleton(n);
      const list = this.byLoose.get(key);
      if (!list) this.byLoose.set(key, [n]);
      else if (!list.includes(n)) list.push(n);
    }
  }

  /** The look-alike finding of `name` against the indexed names. */
  check(name: string, pointer = '/name'): GuardFinding | undefined {
    return lookalikeName(name, this.byLoose.get(looseSkeleton(name)) ?? [], pointer);
  }
}
