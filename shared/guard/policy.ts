/**
 * The guard's settings, as tool.json, bundle.json and config.json hold them (docs/contracts.md,
 * "The guard"), and how they combine. Pure: the file schemas import these.
 *
 * - `output` (tool, bundle, config): what the output guard does with a result on its way to an
 *   agent — `off`, `flag` (say what is there, in the result's `_meta`) or `strip` (remove it and
 *   say so). The tool's setting wins over its bundle's, the bundle's over config's; with none
 *   set, an upstream server's tools are `flag` and Toolwright's own tools `off`.
 * - `policy` (bundle, config): what an error of the definition guard does — `warn` (shown where
 *   the tool is shown, the tool offered as before) or `withhold` (not offered to agents, calls
 *   refused saying why, until a person accepts the findings). The bundle's wins; default `warn`.
 * - `accepted` (tool, written only by the accept operation): the definition a person accepted
 *   despite its findings, by digest; a change of the definition re-opens it.
 */
import { Type, type Static } from '@sinclair/typebox';

export const OutputGuardModeSchema = Type.Union([Type.Literal('off'), Type.Literal('flag'), Type.Literal('strip')]);
export const GuardPolicySchema = Type.Union([Type.Literal('warn'), Type.Literal('withhold')]);
export type GuardPolicy = Static<typeof GuardPolicySchema>;

export const GuardAcceptance = Type.Object(
  {
    /** sha256 of what the guard read (guardDigest), when a person accepted it. */
    digest: Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }),
    acceptedAt: Type.String({ maxLength: 64 }),
    /** Who accepted (the caller's name), as the audit log records it. */
    by: Type.Optional(Type.String({ maxLength: 256 })),
    /** The classes of the errors accepted, for people reading the file. */
    classes: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16 })),
  },
  { additionalProperties: false },
);
export type GuardAcceptance = Static<typeof GuardAcceptance>;

export const ToolGuardSettings = Type.Object(
  { output: Type.Optional(OutputGuardModeSchema), accepted: Type.Optional(GuardAcceptance) },
  { additionalProperties: false },
);
export type ToolGuardSettings = Static<typeof ToolGuardSettings>;

/** What a client may send for a tool: `accepted` is written only by tools.acceptGuard (a stored one is kept). */
export const ToolGuardInput = Type.Object(
  { output: Type.Optional(OutputGuardModeSchema), accepted: Type.Optional(Type.Unknown()) },
  { additionalProperties: false },
);

export const BundleGuardSettings = Type.Object(
  { policy: Type.Optional(GuardPolicySchema), output: Type.Optional(OutputGuardModeSchema) },
  { additionalProperties: false },
);
export type BundleGuardSettings = Static<typeof BundleGuardSettings>;

/** config.json `guard`: the defaults for every bundle. */
export const ConfigGuardSettings = BundleGuardSettings;

type OutputMode = Static<typeof OutputGuardModeSchema>;

/** The output guard's mode for a tool: tool, then bundle, then config, then its origin's default. */
export function outputGuardMode(
  tool: { guard?: { output?: OutputMode } | undefined },
  bundle: { guard?: { output?: OutputMode } | undefined } | undefined,
  config: { guard?: { output?: OutputMode } | undefined },
  fromUpstream: boolean,
): OutputMode {
  return tool.guard?.output ?? bundle?.guard?.output ?? config.guard?.output ?? (fromUpstream ? 'flag' : 'off');
}

/** What a definition guard error does in a bundle: its policy, then config's, then warn. */
export function guardPolicy(
  bundle: { guard?: { policy?: GuardPolicy } | undefined } | undefined,
  config: { guard?: { policy?: GuardPolicy } | undefined },
): GuardPolicy {
  return bundle?.guard?.policy ?? config.guard?.policy ?? 'warn';
}
