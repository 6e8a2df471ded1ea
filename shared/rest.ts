/**
 * How each operation travels over REST (docs/contracts.md, "REST contract"). The headless host
 * registers its routes from this table and the browser-mode client builds its requests from
 * it, so the two cannot disagree. Binary operations (export/import) and the event stream are
 * special-cased by both sides and marked `binary`.
 */
import type { OpInput, OpName } from './operations.js';

export type HttpVerb = 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE';

export interface RestRoute {
  method: HttpVerb;
  /** Fastify-style path; `:name` segments are percent-encoded UTF-8. */
  path: string;
  /** Input keys taken from path segments. */
  params?: readonly string[];
  /** Input keys taken from the query string; arrays travel comma-separated. */
  query?: readonly string[];
  /** Input key that receives the whole JSON body, or '*' to spread the body's keys into the input. */
  body?: string;
  /** Success status when the operation does not decide it. */
  status?: number;
  binary?: boolean;
  /** The response body is `data[unwrap]`; `data.created` true answers 201 instead of 200. */
  unwrap?: string;
  /** `?stream=true` answers text/event-stream: one event per InvokeStreamEvent (named by its type), then `result`. */
  stream?: boolean;
}

const TOOL = '/tools/bundles/:bundleID/tools/:slug/version/:version';
const TOOL_PARAMS = ['bundleID', 'slug', 'version'] as const;

export const REST_ROUTES: Record<OpName, RestRoute> = {
  'bundles.list': { method: 'GET', path: '/tools/bundles', query: ['bundleIDs', 'includeDisabled', 'deleted', 'pageSize', 'pageToken'] },
  'bundles.export': { method: 'GET', path: '/tools/bundles/export', query: ['bundleIDs'], binary: true },
  'bundles.import': { method: 'POST', path: '/tools/bundles/import', query: ['onConflict', 'dryRun'], binary: true },
  'bundles.importSkill': { method: 'POST', path: '/tools/bundles/import/skill', body: '*', status: 201 },
  'bundles.importOpenApi': { method: 'POST', path: '/tools/bundles/import/openapi', body: '*', status: 201 },
  'bundles.importMcpServers': { method: 'POST', path: '/tools/bundles/import/mcp', body: '*', status: 201 },
  'tools.importContainer': { method: 'POST', path: '/tools/bundles/:bundleID/container-import', params: ['bundleID'], body: '*', status: 201 },
  'tools.openaiFunctions': { method: 'GET', path: '/tools/tools/openai-functions', query: ['bundleIDs'] },
  'tools.lint': { method: 'GET', path: '/tools/lint', query: ['bundleIDs', 'toolIDs'] },
  'bundles.get': { method: 'GET', path: '/tools/bundles/:bundleID', params: ['bundleID'] },
  'bundles.put': { method: 'PUT', path: '/tools/bundles/:bundleID', params: ['bundleID'], body: 'bundle', unwrap: 'bundle' },
  'bundles.patch': { method: 'PATCH', path: '/tools/bundles/:bundleID', params: ['bundleID'], body: 'patch' },
  'bundles.delete': { method: 'DELETE', path: '/tools/bundles/:bundleID', params: ['bundleID'] },
  'bundles.restore': { method: 'POST', path: '/tools/bundles/:bundleID/restore', params: ['bundleID'] },
  'bundles.purge': { method: 'POST', path: '/tools/bundles/:bundleID/purge', params: ['bundleID'] },
  'tools.list': { method: 'GET', path: '/tools/tools', query: ['tags', 'bundleIDs', 'includeDisabled', 'recommendedPageSize', 'pageSize', 'pageToken'] },
  'tools.search': { method: 'GET', path: '/tools/tools/search', query: ['q', 'includeDisabled', 'pageSize', 'pageToken'] },
  'tools.get': { method: 'GET', path: TOOL, params: TOOL_PARAMS },
  'tools.put': { method: 'PUT', path: TOOL, params: TOOL_PARAMS, body: 'tool', status: 201 },
  /** Same route as tools.put, chosen when the request carries `If-Match`: the ETag, `*`, or `"<modifiedAt>"` (the older form). */
  'tools.update': { method: 'PUT', path: TOOL, params: TOOL_PARAMS, body: 'tool' },
  'tools.patch': { method: 'PATCH', path: TOOL, params: TOOL_PARAMS, body: 'patch' },
  'tools.delete': { method: 'DELETE', path: TOOL, params: TOOL_PARAMS, status: 204 },
  'tools.invoke': { method: 'POST', path: `${TOOL}/invoke`, params: TOOL_PARAMS, body: '*', stream: true },
  'tools.history': { method: 'GET', path: `${TOOL}/history`, params: TOOL_PARAMS, query: ['limit'] },
  'tools.searchLearning': { method: 'GET', path: '/tools/search-learning/:toolID', params: ['toolID'] },
  'tools.searchLearningReset': { method: 'DELETE', path: '/tools/search-learning', query: ['toolID'] },
  'buildFiles.list': { method: 'GET', path: `${TOOL}/files`, params: TOOL_PARAMS },
  'buildFiles.read': { method: 'GET', path: `${TOOL}/files/content`, params: TOOL_PARAMS, query: ['path'] },
  'buildFiles.write': { method: 'PUT', path: `${TOOL}/files/content`, params: TOOL_PARAMS, query: ['path'], body: '*' },
  'buildFiles.rename': { method: 'POST', path: `${TOOL}/files/rename`, params: TOOL_PARAMS, body: '*' },
  'buildFiles.delete': { method: 'DELETE', path: `${TOOL}/files/content`, params: TOOL_PARAMS, query: ['path'], status: 204 },
  'tools.build': { method: 'POST', path: `${TOOL}/build`, params: TOOL_PARAMS, body: '*' },
  'tools.image': { method: 'GET', path: `${TOOL}/image`, params: TOOL_PARAMS },
  'toolConfig.get': { method: 'GET', path: `${TOOL}/config`, params: TOOL_PARAMS },
  /** The body is the settings themselves, `{"api_key": "…", "region": null}`. */
  'toolConfig.put': { method: 'PUT', path: `${TOOL}/config`, params: TOOL_PARAMS, body: 'settings' },
  'toolConfig.test': { method: 'POST', path: `${TOOL}/config/test`, params: TOOL_PARAMS },
  'tools.cancel': { method: 'POST', path: '/tools/invocations/:invocationID/cancel', params: ['invocationID'] },
  'config.get': { method: 'GET', path: '/tools/config' },
  'config.patch': { method: 'PATCH', path: '/tools/config', body: 'patch' },
  'secrets.list': { method: 'GET', path: '/tools/secrets' },
  'secrets.set': { method: 'PUT', path: '/tools/secrets/:name', params: ['name'], body: '*' },
  'secrets.delete': { method: 'DELETE', path: '/tools/secrets/:name', params: ['name'], status: 204 },
  'agents.list': { method: 'GET', path: '/tools/agents' },
  'approvals.list': { method: 'GET', path: '/tools/approvals' },
  'approvals.decide': { method: 'POST', path: '/tools/approvals/:approvalID', params: ['approvalID'], body: '*' },
  'audit.list': { method: 'GET', path: '/tools/audit', query: ['since', 'until', 'kind', 'tool', 'caller', 'pageSize', 'pageToken'] },
  'audit.verify': { method: 'GET', path: '/tools/audit/verify' },
  'problems.list': { method: 'GET', path: '/tools/problems' },
  'functions.list': { method: 'GET', path: '/tools/functions' },
  'system.info': { method: 'GET', path: '/tools/system' },
  'schedules.list': { method: 'GET', path: '/tools/schedules', query: ['toolID'] },
  'schedules.patch': { method: 'PATCH', path: '/tools/schedules/:scheduleID', params: ['scheduleID'], body: 'patch' },
  'schedules.run': { method: 'POST', path: '/tools/schedules/:scheduleID/run', params: ['scheduleID'], body: '*' },
  'schedules.latest': { method: 'GET', path: '/tools/schedules/:scheduleID/latest', params: ['scheduleID'] },
  'schedules.create': { method: 'POST', path: '/tools/schedules', body: '*', status: 201 },
  'schedules.search': { method: 'GET', path: '/tools/schedules/search', query: ['text', 'tool', 'state', 'cadence', 'limit', 'offset'] },
  'schedules.edit': { method: 'POST', path: '/tools/schedules/:scheduleID/edit', params: ['scheduleID'], body: 'patch' },
  'schedules.delete': { method: 'DELETE', path: '/tools/schedules/:scheduleID', params: ['scheduleID'] },
  'schedules.runs': { method: 'GET', path: '/tools/schedules/:scheduleID/runs', params: ['scheduleID'], query: ['limit', 'offset'] },
  'schedules.runOutput': {
    method: 'GET',
    path: '/tools/schedules/:scheduleID/runs/:invocationID/output',
    params: ['scheduleID', 'invocationID'],
    query: ['offset', 'maxChars'],
  },
  'servers.probe': { method: 'POST', path: '/tools/servers/probe', body: '*' },
  'servers.status': { method: 'GET', path: '/tools/bundles/:bundleID/server', params: ['bundleID'] },
  'servers.sync': { method: 'POST', path: '/tools/bundles/:bundleID/sync', params: ['bundleID'], query: ['dryRun'] },
  'servers.stop': { method: 'POST', path: '/tools/bundles/:bundleID/server/stop', params: ['bundleID'] },
  'servers.authorize': { method: 'POST', path: '/tools/bundles/:bundleID/server/authorize', params: ['bundleID'] },
  'tools.definition': { method: 'GET', path: `${TOOL}/definition`, params: TOOL_PARAMS },
  'tools.acceptDefinition': { method: 'POST', path: `${TOOL}/definition/accept`, params: TOOL_PARAMS, body: '*' },
  'tools.guard': { method: 'GET', path: `${TOOL}/guard`, params: TOOL_PARAMS },
  'tools.acceptGuard': { method: 'POST', path: `${TOOL}/guard/accept`, params: TOOL_PARAMS, body: '*' },
  'profiles.list': { method: 'GET', path: '/tools/profiles' },
  'profiles.get': { method: 'GET', path: '/tools/profiles/:profileID', params: ['profileID'] },
  'profiles.put': { method: 'PUT', path: '/tools/profiles/:profileID', params: ['profileID'], body: 'profile', unwrap: 'profile' },
  'profiles.delete': { method: 'DELETE', path: '/tools/profiles/:profileID', params: ['profileID'], status: 204 },
  'profiles.tokens.list': { method: 'GET', path: '/tools/profiles/:profileID/tokens', params: ['profileID'] },
  'profiles.tokens.create': { method: 'POST', path: '/tools/profiles/:profileID/tokens', params: ['profileID'], body: '*', status: 201 },
  'profiles.tokens.revoke': { method: 'DELETE', path: '/tools/profiles/:profileID/tokens/:tokenID', params: ['profileID', 'tokenID'], status: 204 },
};

/** The query parameter that turns a streaming route's answer into server-sent events. */
export const STREAM_QUERY = 'stream';
/** The last event of a streamed invoke: its data is the usual invoke answer. */
export const RESULT_EVENT = 'result';

/** Server-sent events of the store (StoreEvent JSON per `data:` line). */
export const EVENTS_PATH = '/tools/events';

/** Query keys whose values are lists (comma-separated on the wire). */
export const LIST_QUERY_KEYS = new Set(['bundleIDs', 'toolIDs', 'tags', 'kind']);
/** Query keys whose values are booleans ("true"/"false"). */
export const BOOLEAN_QUERY_KEYS = new Set(['includeDisabled', 'dryRun']);
/** Query keys whose values are integers. */
export const INTEGER_QUERY_KEYS = new Set(['pageSize', 'recommendedPageSize', 'limit', 'offset', 'maxChars']);

export interface BuiltRequest {
  method: HttpVerb;
  /** Path with parameters filled and percent-encoded, plus the query string. */
  url: string;
  body?: unknown;
  headers: Record<string, string>;
}

/** Builds the HTTP request of an operation (used by the browser client and by tests). */
export function buildRestRequest<N extends OpName>(name: N, input: OpInput<N>): BuiltRequest {
  const route = REST_ROUTES[name];
  const rec = { ...(input as Record<string, unknown>) };
  const headers: Record<string, string> = {};
  let path = route.path;
  for (const p of route.params ?? []) {
    path = path.replace(`:${p}`, encodeURIComponent(String(rec[p])));
    delete rec[p];
  }
  const qs: string[] = [];
  for (const q of route.query ?? []) {
    const v = rec[q];
    delete rec[q];
    if (v === undefined || v === null) continue;
    const text = Array.isArray(v) ? v.join(',') : String(v);
    qs.push(`${encodeURIComponent(q)}=${encodeURIComponent(text)}`);
  }
  // If-Match travels as a header; tools.update always sends one, since it is what tells it from tools.put.
  const ifMatch = rec['ifMatch'] ?? rec['ifModifiedAt'];
  delete rec['ifMatch'];
  delete rec['ifModifiedAt'];
  if (ifMatch) headers['If-Match'] = ifMatch === '*' ? '*' : `"${String(ifMatch)}"`;
  else if (name === 'tools.update') headers['If-Match'] = '*';
  let body: unknown;
  if (route.body === '*') body = rec;
  else if (route.body) body = rec[route.body];
  return { method: route.method, url: path + (qs.length ? `?${qs.join('&')}` : ''), body, headers };
}
