/**
 * What a change of a definition adds to the guard's findings: the review of an upstream tool's
 * new definition shows these beside the diff, so a rug-pull (an honest tool that later slips an
 * order to the model into its description) is named at the moment a person is asked to accept it.
 * Pure.
 */
import type { GuardFinding, GuardReport, GuardSeverity } from './types.js';

/** A finding's identity across two versions of a definition: its class, field and offending text (not its offsets). */
const keyOf = (f: GuardFinding) => `${f.class}\u0000${f.pointer}\u0000${f.span.text}`;

/** The findings of `after` that `before` did not have. */
export function addedFindings(before: readonly GuardFinding[], after: readonly GuardFinding[]): GuardFinding[] {
  const seen = new Set(before.map(keyOf));
  return after.filter((f) => !seen.has(keyOf(f)));
}

/** The worst severity of some findings, or null. */
export function worstOf(findings: readonly GuardFinding[]): GuardSeverity | null {
  return findings.some((f) => f.severity === 'error') ? 'error' : findings.length ? 'warning' : null;
}

/** A report of some findings (for the parts of a report that are a subset: what a change added). */
export function reportOf(findings: GuardFinding[]): GuardReport {
  return { findings, worst: worstOf(findings) };
}
