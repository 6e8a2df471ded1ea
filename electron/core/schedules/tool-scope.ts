/**
 * Which tools a caller may put on a schedule: a person (the app, REST, the CLI) any tool; an agent
 * only a tool it is offered — switched on, not withheld, and inside its profile when it came
 * through one — so a schedule never becomes a way to run what its address does not show.
 */
import type { Caller } from '../../../shared/caller.js';
import type { ProfileFile } from '../../../shared/agents/profiles.js';
import type { ToolRecord } from '../store/reader.js';
import type { ToolService } from '../store/tools.js';

export function scheduleToolScope(
  tools: Pick<ToolService, 'offeredToAgents'>,
  profiles: { get(profileID: string): ProfileFile | undefined },
): (caller: Caller) => (rec: ToolRecord) => boolean {
  return (caller) => {
    if (caller.transport !== 'mcp') return () => true;
    if (caller.profile === undefined) return (rec) => tools.offeredToAgents(rec);
    const profile = profiles.get(caller.profile);
    if (!profile) return () => false;
    const bundles = new Set(profile.bundles.map((b) => b.toLowerCase()));
    const include = new Set((profile.include ?? []).map((t) => t.toLowerCase()));
    const exclude = new Set((profile.exclude ?? []).map((t) => t.toLowerCase()));
    return (rec) => tools.offeredToAgents(rec) && !exclude.has(rec.file.toolID) && (bundles.has(rec.file.bundleID) || include.has(rec.file.toolID));
  };
}
