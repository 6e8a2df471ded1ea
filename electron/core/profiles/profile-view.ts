/**
 * What a profile's agent sees: the tools of its bundles (offered to agents by the same rule as
 * `/mcp`, named by agent-tools.ts), plus its include, minus its exclude, with the overrides'
 * names and descriptions in front. An override changes only what the agent reads: the tool and
 * its history stay the tool's. Also the checks a profile must pass to be saved (override names
 * that break MCP's rule or collide) and the references that no longer exist.
 */
import type { ProfileFile, ProfileTool } from '../../../shared/agents/profiles.js';
import { MCP_TOOL_NAME } from '../../../shared/agents/profiles.js';
import type { FieldIssue } from '../../../shared/errors.js';
import { agentTools, MAX_TOOL_NAME, type AgentTool } from '../agents/agent-tools.js';
import type { StoreReader } from '../store/reader.js';
import type { ToolService } from '../store/tools.js';

type Source = Pick<ProfileFile, 'bundles' | 'include' | 'exclude' | 'overrides'>;

function named(reader: StoreReader, tools: ToolService, p: Source): AgentTool[] {
  return agentTools(reader, tools, {
    bundleIDs: new Set(p.bundles),
    toolIDs: new Set(p.include ?? []),
    excludeToolIDs: new Set(p.exclude ?? []),
  });
}

/**
 * The profile's tools, overrides applied. A name an override takes that a tool made visible
 * later also has (saving checked it was free) goes to the override; the other tool gets a suffix.
 */
export function profileTools(reader: StoreReader, tools: ToolService, p: Source): AgentTool[] {
  const overrides = p.overrides ?? {};
  const list = named(reader, tools, p).map((t): AgentTool => {
    const o = Object.hasOwn(overrides, t.file.toolID) ? overrides[t.file.toolID] : undefined;
    if (!o || (o.name === undefined && o.description === undefined)) return t;
    return {
      ...t,
      ...(o.name !== undefined ? { name: o.name } : {}),
      ...(o.description !== undefined ? { description: o.description } : {}),
      overridden: true,
    };
  });
  const taken = new Set(list.filter((t) => t.overridden).map((t) => t.name));
  const used = new Set<string>();
  return list.map((t) => {
    if (t.overridden && !used.has(t.name)) {
      used.add(t.name);
      return t;
    }
    let name = t.name;
    for (let i = 2; used.has(name) || (!t.overridden && taken.has(name)); i++) name = `${t.name.slice(0, MAX_TOOL_NAME - String(i).length - 1)}_${i}`;
    used.add(name);
    return name === t.name ? t : { ...t, name };
  });
}

/** Every override name that breaks MCP's tool-name rule or collides with another tool's name in the profile. */
export function overrideIssues(reader: StoreReader, tools: ToolService, p: Source): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const overrides = p.overrides ?? {};
  for (const [toolID, o] of Object.entries(overrides)) {
    if (o.name !== undefined && !MCP_TOOL_NAME.test(o.name)) {
      issues.push({
        field: `overrides.${toolID}.name`,
        message: `'${o.name.slice(0, 100)}' is not an MCP tool name: use 1 to 64 of A-Z a-z 0-9 _ . -`,
      });
    }
  }
  const byName = new Map<string, AgentTool[]>();
  for (const t of named(reader, tools, p)) {
    const o = Object.hasOwn(overrides, t.file.toolID) ? overrides[t.file.toolID] : undefined;
    const name = o?.name ?? t.name;
    byName.set(name, [...(byName.get(name) ?? []), t]);
  }
  for (const [name, holders] of byName) {
    if (holders.length < 2) continue;
    for (const t of holders) {
      if (overrides[t.file.toolID]?.name === undefined) continue;
      const others = holders.filter((h) => h !== t).map((h) => `${h.bundle.slug}/${h.file.slug}@${h.file.version}`);
      issues.push({
        field: `overrides.${t.file.toolID}.name`,
        message: `'${name}' is also the name of ${others.join(', ')} in this profile; choose another name`,
      });
    }
  }
  return issues;
}

/** References of the profile that no longer exist: kept in the file, shown to the person. */
export function missingRefs(reader: StoreReader, p: Source): { bundles: string[]; tools: string[] } {
  const tools = new Set<string>();
  for (const id of [...(p.include ?? []), ...(p.exclude ?? []), ...Object.keys(p.overrides ?? {})]) if (!reader.tool(id)) tools.add(id);
  return { bundles: p.bundles.filter((id) => !reader.bundle(id)), tools: [...tools] };
}

export function profileToolRows(list: readonly AgentTool[]): ProfileTool[] {
  return list.map((t) => ({
    toolID: t.file.toolID,
    bundleID: t.file.bundleID,
    slug: t.file.slug,
    version: t.file.version,
    name: t.name,
    description: t.description ?? (t.file.description || t.file.displayName || t.file.slug),
    overridden: t.overridden === true,
  }));
}
