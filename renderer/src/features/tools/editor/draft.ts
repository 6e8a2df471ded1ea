/**
 * The tool editor's working copy. Text fields stay text while being typed (numbers, JSON) and
 * are converted once, on save; each type keeps its own impl draft (tool-types/), so switching
 * type and back loses nothing. `localIssues` is what can be checked without the server, keyed
 * like server issues.
 */
import { checkSlug, checkVersion } from '../../../../../shared/slug.js';
import type { ToolInput } from '../../../../../shared/operations.js';
import type { Safety, ToolType } from '../../../../../shared/schemas.js';
import type { ToolView } from '../../../../../shared/types.js';
import { jsonProblems } from '../../../components/code/JsonEditor.js';
import { overlayEdits, type Json } from './merge.js';
import { argNames, checkArgSchema, checkJsonSchema } from './schema/schemaChecks.js';
import { compact, intIssue, optInt, optStr, str } from '../../../tool-types/editor-type.js';
import { checkImpl, emptyImpls, IMPL_FIELDS, implFromTool, implOfType, type ImplDrafts } from '../../../tool-types/registry.js';
import { scheduleIssues, schedulesFromTool, schedulesToInput, type ScheduleDraft } from '../../schedules/scheduleDraft.js';

export interface ToolDraft {
  slug: string;
  version: string;
  displayName: string;
  description: string;
  tags: string;
  type: ToolType;
  /** 'auto' lets the core derive it from the type and impl. */
  safety: Safety | 'auto';
  isEnabled: boolean;
  argSchemaText: string;
  outputSchemaText: string;
  impls: ImplDrafts;
  card: { enabled: boolean; title: string; accentColor: string; backgroundColor: string };
  maxCallsPerMinute: string;
  maxOutputBytes: string;
  schedules: ScheduleDraft[];
  /**
   * The tool as opened (undefined for a new one). The save lays the person's edits over it, so
   * what the form does not model (impl.secrets, impl.settings, "x-" keys, fields of a newer
   * format) comes back as it was, and what the form would normalise is sent as written.
   */
  original?: ToolView;
}

const DEFAULT_ARG_SCHEMA = '{\n  "type": "object",\n  "properties": {},\n  "additionalProperties": false\n}';

export function emptyDraft(): ToolDraft {
  return {
    slug: '',
    version: 'v1',
    displayName: '',
    description: '',
    tags: '',
    type: 'http',
    safety: 'auto',
    isEnabled: true,
    argSchemaText: DEFAULT_ARG_SCHEMA,
    outputSchemaText: '{}',
    impls: emptyImpls(),
    card: { enabled: false, title: '', accentColor: '#4a90d4', backgroundColor: 'rgba(74,144,212,0.10)' },
    maxCallsPerMinute: '',
    maxOutputBytes: '',
    schedules: [],
  };
}

export function draftFromTool(tool: ToolView): ToolDraft {
  const d = emptyDraft();
  d.slug = tool.slug;
  d.version = tool.version;
  d.displayName = tool.displayName;
  d.description = tool.description;
  d.tags = tool.tags.join(', ');
  d.type = tool.type;
  d.safety = tool.safety;
  d.isEnabled = tool.isEnabled;
  d.argSchemaText = JSON.stringify(tool.argSchema, null, 2);
  d.outputSchemaText = JSON.stringify(tool.outputSchema, null, 2);
  d.impls = implFromTool(tool.type, tool.impl as Record<string, unknown>, d.impls);
  d.card = {
    enabled: tool.card.enabled,
    title: tool.card.title ?? '',
    accentColor: tool.card.accentColor ?? '',
    backgroundColor: tool.card.backgroundColor ?? '',
  };
  d.maxCallsPerMinute = str(tool.limits.maxCallsPerMinute);
  d.maxOutputBytes = str(tool.limits.maxOutputBytes);
  d.schedules = schedulesFromTool(tool);
  d.original = tool;
  return d;
}

/** Fields of a tool the core sets or derives: never sent back. */
const NOT_SENT: readonly string[] = [
  'schemaVersion',
  'toolID',
  'bundleID',
  'isBuiltIn',
  'createdAt',
  'modifiedAt',
  'availability',
  'metrics',
  'effectiveSafety',
];

/**
 * Builds the ToolInput to send; call only when localIssues is empty (the JSON must parse).
 * For a tool that was opened, only what the person changed differs from the tool as it was.
 */
export function toToolInput(d: ToolDraft): ToolInput {
  const edited = formInput(d);
  if (!d.original) return edited;
  const stored = Object.fromEntries(Object.entries(d.original).filter(([key]) => !NOT_SENT.includes(key))) as Json;
  // What the form makes of the tool untouched: where the draft still says that, the stored value
  // (or its absence) goes back; where it differs, the person changed it.
  const asOpened = formInput(draftFromTool(d.original)) as unknown as Json;
  const input = overlayEdits(asOpened, edited as unknown as Json, stored) as unknown as ToolInput;
  // Another type's impl shares nothing with the one the tool had.
  return edited.type === d.original.type ? input : { ...input, impl: edited.impl };
}

/** The ToolInput the form's fields describe, without what the form does not model. */
function formInput(d: ToolDraft): ToolInput {
  return compact({
    displayName: d.displayName,
    description: d.description,
    type: d.type,
    isEnabled: d.isEnabled,
    tags: d.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    safety: d.safety === 'auto' ? undefined : d.safety,
    argSchema: JSON.parse(d.argSchemaText) as ToolInput['argSchema'],
    outputSchema: JSON.parse(d.outputSchemaText) as ToolInput['outputSchema'],
    impl: implOfType(d.type, d.impls),
    card: compact({
      enabled: d.card.enabled,
      title: optStr(d.card.title),
      accentColor: optStr(d.card.accentColor),
      backgroundColor: optStr(d.card.backgroundColor),
    }),
    limits: compact({ maxCallsPerMinute: optInt(d.maxCallsPerMinute), maxOutputBytes: optInt(d.maxOutputBytes) }),
    schedules: schedulesToInput(d.schedules),
    slug: d.slug.normalize('NFC'),
    version: d.version.normalize('NFC'),
  }) as ToolInput;
}

const CSS_COLOR = /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/deg]+\)|[a-zA-Z]{3,24})$/;

/** Problems found without the server, keyed by the same field names the server uses. */
export function localIssues(d: ToolDraft): Map<string, string> {
  const out = new Map<string, string>();
  const set = (field: string, msg: string | undefined) => {
    if (msg && !out.has(field)) out.set(field, msg);
  };
  const slug = checkSlug(d.slug);
  if (!slug.ok) set('slug', slug.message);
  const version = checkVersion(d.version);
  if (!version.ok) set('version', version.message);
  const argProblems = jsonProblems(d.argSchemaText, checkArgSchema);
  if (argProblems.length) set('argSchema', argProblems[0]);
  const outProblems = jsonProblems(d.outputSchemaText, checkJsonSchema);
  if (outProblems.length) set('outputSchema', outProblems[0]);
  set('limits.maxCallsPerMinute', intIssue(d.maxCallsPerMinute, 1, 100000));
  set('limits.maxOutputBytes', intIssue(d.maxOutputBytes, 64, 16 * 1024 * 1024));
  if (d.card.accentColor && !CSS_COLOR.test(d.card.accentColor.trim()))
    set('card.accentColor', 'use a colour such as #4a90d4, rgb(…), hsl(…) or a colour name');
  if (d.card.backgroundColor && !CSS_COLOR.test(d.card.backgroundColor.trim()))
    set('card.backgroundColor', 'use a colour such as #ffffff, rgba(…), hsl(…) or a colour name');
  checkImpl(d.type, d.impls, { argNames: argNamesOf(d) }, set);
  scheduleIssues(d.schedules, parsedArgSchema(d), d.safety === 'privileged', set);
  return out;
}

/** The draft's argSchema, or undefined while its text does not parse. */
export function parsedArgSchema(d: Pick<ToolDraft, 'argSchemaText'>): unknown {
  try {
    return JSON.parse(d.argSchemaText) as unknown;
  } catch {
    return undefined;
  }
}

/** Argument names from the draft's argSchema text (empty while it does not parse). */
export function argNamesOf(d: ToolDraft): string[] {
  try {
    return argNames(JSON.parse(d.argSchemaText));
  } catch {
    return [];
  }
}

export const TOOL_FIELDS: readonly string[] = [
  'slug',
  'version',
  'displayName',
  'description',
  'tags',
  'safety',
  'type',
  'isEnabled',
  'argSchema',
  'outputSchema',
  ...IMPL_FIELDS,
  'card',
  'card.title',
  'card.accentColor',
  'card.backgroundColor',
  'limits.maxCallsPerMinute',
  'limits.maxOutputBytes',
  'schedules',
];
