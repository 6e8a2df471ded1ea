/**
 * Query keys and hooks over the client. Keys are hierarchical so a store event can invalidate
 * exactly what it touched (events.ts).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { useFirstScreenSettled } from './first-screen.js';
import { call } from './client.js';
import type { OpInput } from '../../../shared/operations.js';
import type { BundleView, ScheduleView, ToolView } from '../../../shared/types.js';

export interface ToolRef {
  bundleID: string;
  slug: string;
  version: string;
}

export const keys = {
  bundles: ['bundles'] as const,
  bundleList: (deleted: 'exclude' | 'only') => ['bundles', 'list', deleted] as const,
  bundle: (bundleID: string) => ['bundles', 'one', bundleID] as const,
  tools: ['tools'] as const,
  toolList: (bundleID: string | null) => ['tools', 'list', bundleID ?? '*'] as const,
  tool: (ref: ToolRef) => ['tools', 'one', ref.bundleID, ref.slug, ref.version] as const,
  history: (ref: ToolRef) => ['tools', 'history', ref.bundleID, ref.slug, ref.version] as const,
  search: (q: string) => ['search', q] as const,
  config: ['config'] as const,
  secrets: ['secrets'] as const,
  functions: ['functions'] as const,
  system: ['system'] as const,
  problems: ['problems'] as const,
  approvals: ['approvals'] as const,
  audit: (filter: AuditListFilter) => ['audit', filter] as const,
  agents: ['agents'] as const,
  schedules: ['schedules'] as const,
  scheduleList: (toolID: string | null) => ['schedules', 'list', toolID ?? '*'] as const,
  scheduleOutput: (scheduleID: string) => ['schedules', 'output', scheduleID] as const,
  allTools: ['tools', 'all'] as const,
  /** By toolID: store events name tools by ID, and a rename keeps the folder. */
  buildFiles: (toolID: string) => ['buildFiles', toolID] as const,
  buildFile: (toolID: string, path: string) => ['buildFiles', toolID, 'file', path] as const,
  toolImage: (toolID: string) => ['toolImage', toolID] as const,
  /** An upstream bundle's server: its state, stderr and last sync (servers.status). */
  server: (bundleID: string) => ['servers', bundleID] as const,
  /** Under 'tools': a tool change (an accept, a sync) makes its review stale too. */
  definition: (ref: ToolRef) => ['tools', 'definition', ref.bundleID, ref.slug, ref.version] as const,
  /** Under 'tools': the guard's review of one tool changes with its definition and its bundle's policy. */
  guard: (ref: ToolRef) => ['tools', 'guard', ref.bundleID, ref.slug, ref.version] as const,
  /** Under 'tools': any tool's change may add or settle a near-duplicate. */
  lint: (scope: { bundleID?: string; toolID?: string }) => ['tools', 'lint', scope.bundleID ?? '', scope.toolID ?? ''] as const,
  /** Under 'tools': what agents' searches taught a tool (tools.searchLearning). */
  searchLearning: (toolID: string) => ['tools', 'searchLearning', toolID] as const,
  profiles: ['profiles'] as const,
  profileList: ['profiles', 'list'] as const,
  profile: (profileID: string) => ['profiles', 'one', profileID] as const,
  profileTokens: (profileID: string) => ['profiles', 'tokens', profileID] as const,
};

/** What an agent may misread: of one tool (whatever its state), or of the tools agents see in a bundle. */
export function useToolLint(scope: { bundleID?: string; toolID?: string }) {
  return useQuery({
    queryKey: keys.lint(scope),
    queryFn: () => call('tools.lint', scope.toolID ? { toolIDs: [scope.toolID] } : scope.bundleID ? { bundleIDs: [scope.bundleID] } : {}),
  });
}

/** The definition guard's findings on one tool as it is now, with the digest an acceptance is pinned to (tools.guard). */
export function useToolGuard(ref: ToolRef) {
  return useQuery({ queryKey: keys.guard(ref), queryFn: () => call('tools.guard', ref) });
}

/** What agents' searches taught one tool: its learned words and the searches that found it. */
export function useSearchLearning(toolID: string) {
  return useQuery({ queryKey: keys.searchLearning(toolID), queryFn: () => call('tools.searchLearning', { toolID }) });
}

/** All bundles (enabled and disabled), or the Trash. Bundles are few, so every page is fetched. */
export function bundleListQuery(deleted: 'exclude' | 'only') {
  return queryOptions({
    queryKey: keys.bundleList(deleted),
    queryFn: async () => {
      const items: BundleView[] = [];
      let pageToken: string | undefined;
      do {
        const page = await call('bundles.list', { includeDisabled: true, deleted, pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
        items.push(...page.items);
        pageToken = page.nextPageToken;
      } while (pageToken);
      return items;
    },
  });
}

/** The Trash is asked for once the first screen has painted (its count is not on the tool list). */
export function useBundles(deleted: 'exclude' | 'only' = 'exclude') {
  const settled = useFirstScreenSettled();
  return useQuery({ ...bundleListQuery(deleted), enabled: deleted === 'exclude' || settled });
}

export const TOOL_PAGE_SIZE = 1000;
/**
 * The first page holds what a screen shows and a little more: with 10,000 tools, a first page of
 * 1,000 (740 KB of JSON to make, send and parse) was most of the first render.
 */
export const FIRST_TOOL_PAGE_SIZE = 100;

/** Tools of one bundle, or of all bundles (null), page by page; the list asks for more as it scrolls. */
export function toolPagesQuery(bundleID: string | null) {
  return infiniteQueryOptions({
    queryKey: keys.toolList(bundleID),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call('tools.list', {
        includeDisabled: true,
        recommendedPageSize: pageParam ? TOOL_PAGE_SIZE : FIRST_TOOL_PAGE_SIZE,
        ...(bundleID ? { bundleIDs: [bundleID] } : {}),
        ...(pageParam ? { pageToken: pageParam } : {}),
      }),
    getNextPageParam: (last) => last.nextPageToken,
  });
}

export function useToolPages(bundleID: string | null) {
  return useInfiniteQuery(toolPagesQuery(bundleID));
}

export function useTool(ref: ToolRef | null) {
  return useQuery({
    queryKey: ref ? keys.tool(ref) : ['tools', 'one', 'none'],
    queryFn: () => call('tools.get', ref!),
    enabled: ref !== null,
  });
}

export function useHistory(ref: ToolRef) {
  return useQuery({
    queryKey: keys.history(ref),
    queryFn: () => call('tools.history', { ...ref, limit: 25 }),
  });
}

export function configQuery() {
  return queryOptions({ queryKey: keys.config, queryFn: () => call('config.get', {}) });
}

export function useConfig() {
  return useQuery(configQuery());
}

export function useSecrets() {
  return useQuery({ queryKey: keys.secrets, queryFn: () => call('secrets.list', {}) });
}

export function useFunctions() {
  return useQuery({ queryKey: keys.functions, queryFn: () => call('functions.list', {}), staleTime: 60_000 });
}

export function useSystemInfo() {
  return useQuery({ queryKey: keys.system, queryFn: () => call('system.info', {}) });
}

export function problemsQuery() {
  return queryOptions({ queryKey: keys.problems, queryFn: () => call('problems.list', {}) });
}

export function useProblems() {
  return useQuery(problemsQuery());
}

export function toolRefOf(tool: Pick<ToolView, 'bundleID' | 'slug' | 'version'>): ToolRef {
  return { bundleID: tool.bundleID, slug: tool.slug, version: tool.version };
}

/** Replaces one tool inside every cached list page (optimistic switches, saved edits). */
export function patchToolInLists(qc: QueryClient, toolID: string, patch: (t: ToolView) => ToolView): void {
  qc.setQueriesData<{ pages: { items: ToolView[]; nextPageToken?: string }[]; pageParams: unknown[] }>(
    { queryKey: ['tools', 'list'] },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((p) => ({ ...p, items: p.items.map((t) => (t.toolID === toolID ? patch(t) : t)) })),
      },
  );
}

/** Privileged calls from agents waiting for a yes; refetched on approvals.changed, and each second while any wait (their countdowns). */
export type AuditListFilter = Omit<OpInput<'audit.list'>, 'pageToken' | 'pageSize'>;

/** The audit log, newest first, a page at a time (records are kept apart from everything else, so it is refetched on demand). */
export function useAuditRecords(filter: AuditListFilter) {
  return useInfiniteQuery({
    queryKey: keys.audit(filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call('audit.list', { ...filter, pageSize: 200, ...(pageParam ? { pageToken: pageParam } : {}) }),
    getNextPageParam: (last) => last.nextPageToken,
  });
}

/** Asked for once the first screen has painted: the panel shows only while some wait. */
export function useApprovals() {
  const settled = useFirstScreenSettled();
  return useQuery({
    enabled: settled,
    queryKey: keys.approvals,
    queryFn: async () => (await call('approvals.list', {})).items,
    refetchInterval: (q) => (q.state.data?.length ? 1000 : 15_000),
  });
}

/** Agents connected over MCP right now, in any process. */
export function useAgentConnections() {
  return useQuery({ queryKey: keys.agents, queryFn: async () => (await call('agents.list', {})).items, refetchInterval: 10_000 });
}

/**
 * Every schedule (of one tool when toolID is given), with next and last run; refetched as
 * schedules run and tools change. Asked for once the first screen has painted (the sidebar's count).
 */
export function useSchedules(toolID: string | null = null) {
  const settled = useFirstScreenSettled();
  return useQuery({
    enabled: settled,
    queryKey: keys.scheduleList(toolID),
    queryFn: async (): Promise<ScheduleView[]> => (await call('schedules.list', toolID ? { toolID } : {})).items,
    // "in 3 min" moves on, and a next run comes round.
    refetchInterval: 30_000,
  });
}

/** The latest output of a schedule, or null before its first run. */
export function useScheduleOutput(scheduleID: string, enabled = true) {
  return useQuery({
    queryKey: keys.scheduleOutput(scheduleID),
    queryFn: async () => {
      try {
        return await call('schedules.latest', { scheduleID });
      } catch (e) {
        if ((e as { code?: string }).code === 'NOT_FOUND') return null;
        throw e;
      }
    },
    enabled,
  });
}

/** Every tool, enabled or not, all pages (for screens that name tools by ID, such as Schedules). */
export function useAllTools() {
  return useQuery({
    queryKey: keys.allTools,
    queryFn: async () => {
      const items: ToolView[] = [];
      let pageToken: string | undefined;
      do {
        const page = await call('tools.list', { includeDisabled: true, pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
        items.push(...page.items);
        pageToken = page.nextPageToken;
      } while (pageToken);
      return items;
    },
  });
}

/** The files beside a container tool's tool.json. */
export function useBuildFiles(tool: Pick<ToolView, 'toolID' | 'bundleID' | 'slug' | 'version'> | undefined) {
  return useQuery({
    queryKey: keys.buildFiles(tool?.toolID ?? 'none'),
    queryFn: () => call('buildFiles.list', toolRefOf(tool!)),
    enabled: !!tool,
  });
}

/** The image a container tool runs and whether it is built (asks the Docker engine). */
export function useToolImage(tool: Pick<ToolView, 'toolID' | 'bundleID' | 'slug' | 'version'> | undefined, enabled = true) {
  return useQuery({
    queryKey: keys.toolImage(tool?.toolID ?? 'none'),
    queryFn: () => call('tools.image', toolRefOf(tool!)),
    enabled: !!tool && enabled,
    retry: false,
  });
}

/** The state of an upstream bundle's MCP server; refetched on upstream.changed, and each second while it starts. */
export function useServerStatus(bundleID: string) {
  return useQuery({
    queryKey: keys.server(bundleID),
    queryFn: () => call('servers.status', { bundleID }),
    refetchInterval: (q) => (q.state.data?.state === 'starting' ? 1000 : false),
  });
}

/** An upstream tool's accepted definition beside the server's current one. */
export function useDefinitionReview(ref: ToolRef, enabled = true) {
  return useQuery({ queryKey: keys.definition(ref), queryFn: () => call('tools.definition', ref), enabled });
}

/** Every profile with its tool count, missing references, context cost and client-limit warnings. */
export function useProfiles() {
  return useQuery({ queryKey: keys.profileList, queryFn: async () => (await call('profiles.list', {})).items });
}

/** One profile with its tools as the agent sees them. */
export function useProfile(profileID: string | undefined) {
  return useQuery({ queryKey: keys.profile(profileID ?? 'none'), queryFn: () => call('profiles.get', { profileID: profileID! }), enabled: !!profileID });
}

/** A profile's tokens (label, creation, last use, calls; never the token). */
export function useProfileTokens(profileID: string) {
  return useQuery({ queryKey: keys.profileTokens(profileID), queryFn: async () => (await call('profiles.tokens.list', { profileID })).items });
}
