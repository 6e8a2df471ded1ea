/**
 * The guard's vocabulary (docs/guard.md): what a finding about a tool's
 * definition says, and what the analyser reads. Pure: no Node, no DOM.
 */

/**
 * What a finding is about:
 * - `model-instructions`: text addressed to the model rather than describing the tool — orders
 *   about other tools, files, secrets, the conversation, overriding its rules, hiding things from
 *   the user, changing what the user asked for;
 * - `exfiltration`: text or parameters that ask for data the tool has no use for (keys, secrets,
 *   the conversation), or send data to a URL, e-mail address or number;
 * - `shadowing`: text that changes how *other* tools behave or steers the model away from them;
 * - `command-execution`: shell, code or download instructions for the model to run;
 * - `hidden-characters`: invisible, tag, bidirectional, control or confusable characters, and
 *   names that differ from another tool's only by them;
 * - `hidden-text`: comments, markup, whitespace runs and overlong or encoded text that a person
 *   does not see but the model reads.
 */
export type GuardClass = 'model-instructions' | 'exfiltration' | 'shadowing' | 'command-execution' | 'hidden-characters' | 'hidden-text';

export const GUARD_CLASSES: readonly GuardClass[] = [
  'model-instructions',
  'exfiltration',
  'shadowing',
  'command-execution',
  'hidden-characters',
  'hidden-text',
];

/** error: an attack, or something no honest tool needs; warning: worth a look, common in honest tools too. */
export type GuardSeverity = 'error' | 'warning';

/** Where in a field the finding is: UTF-16 offsets into the field's text, and that text. */
export interface GuardSpan {
  start: number;
  end: number;
  /** The offending text, with invisible characters written out as `<U+200B>` so a person sees them. */
  text: string;
}

export interface GuardFinding {
  class: GuardClass;
  severity: GuardSeverity;
  /** JSON pointer into the definition (`/description`, `/inputSchema/properties/city/description`, `/instructions`). */
  pointer: string;
  span: GuardSpan;
  /** Why: what the text does, in plain words. */
  message: string;
  /** How to fix it. */
  fix: string;
}

/** Everything an agent reads of a tool, in the MCP shape (a Toolwright tool maps onto it: slug, displayName, argSchema). */
export interface GuardDefinition {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  /** An upstream server's instructions, which the agent reads with the server's tools. */
  instructions?: string | undefined;
}

export interface GuardContext {
  /** The other tools the agent sees beside this one: their names are how shadowing and look-alike names are found. */
  otherToolNames?: readonly string[];
}

/** The guard's verdict on one definition. */
export interface GuardReport {
  findings: GuardFinding[];
  /** The worst severity among the findings, or null when there is none. */
  worst: GuardSeverity | null;
}
