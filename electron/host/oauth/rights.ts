/**
 * What an OAuth token's scopes open on the team host (docs/contracts.md, "OAuth scopes"): every
 * route needs one right, listed here in one table, and each scope grants some rights. The host's
 * own token opens everything and a profile's token its profile's address, as before; these rules
 * are for OAuth bearers only.
 */
import { REST_ROUTES } from '../../../shared/rest.js';
import type { OpName } from '../../../shared/operations.js';

export type Right = 'read' | 'call' | 'write' | 'approve' | 'admin';

export const SCOPE_PREFIX = 'toolwright:';
export const PROFILE_SCOPE_PREFIX = `${SCOPE_PREFIX}profile:`;

/** The scope that is enough for a right (admin grants every right). */
export const SCOPE_OF: Record<Right, string> = {
  read: `${SCOPE_PREFIX}read`,
  call: `${SCOPE_PREFIX}call`,
  write: `${SCOPE_PREFIX}write`,
  approve: `${SCOPE_PREFIX}approve`,
  admin: `${SCOPE_PREFIX}admin`,
};

/** What each scope grants: changing and approving need to read what they change or approve. */
const GRANTS: Record<string, readonly Right[]> = {
  [SCOPE_OF.read]: ['read'],
  [SCOPE_OF.call]: ['call'],
  [SCOPE_OF.write]: ['read', 'write'],
  [SCOPE_OF.approve]: ['read', 'approve'],
  [SCOPE_OF.admin]: ['read', 'call', 'write', 'approve', 'admin'],
};

export const SCOPES_SUPPORTED = Object.keys(GRANTS);

/** The right each REST operation needs; a new route fails to compile until it is placed here. */
const OPERATION_RIGHTS: Record<Exclude<keyof typeof REST_ROUTES, 'tools.update'>, Right> = {
  'bundles.list': 'read',
  'bundles.export': 'read',
  'bundles.import': 'write',
  'bundles.importSkill': 'write',
  'bundles.importOpenApi': 'write',
  'bundles.importMcpServers': 'write',
  'tools.importContainer': 'write',
  'tools.openaiFunctions': 'read',
  'tools.lint': 'read',
  'bundles.get': 'read',
  'bundles.put': 'write',
  'bundles.patch': 'write',
  'bundles.delete': 'write',
  'bundles.restore': 'write',
  'bundles.purge': 'write',
  'tools.list': 'read',
  'tools.search': 'read',
  'tools.get': 'read',
  'tools.put': 'write',
  'tools.patch': 'write',
  'tools.delete': 'write',
  'tools.invoke': 'call',
  'tools.history': 'read',
  'tools.searchLearning': 'read',
  'tools.searchLearningReset': 'write',
  'buildFiles.list': 'read',
  'buildFiles.read': 'read',
  'buildFiles.write': 'write',
  'buildFiles.rename': 'write',
  'buildFiles.delete': 'write',
  'tools.build': 'write',
  'tools.image': 'read',
  'toolConfig.get': 'read',
  'toolConfig.put': 'write',
  'toolConfig.test': 'read',
  'tools.cancel': 'call',
  'config.get': 'read',
  // The kill switch, allowed hosts, limits: the host's own safety settings.
  'config.patch': 'admin',
  // Names only, never values; still the keys to every API the tools reach.
  'secrets.list': 'admin',
  'secrets.set': 'admin',
  'secrets.delete': 'admin',
  'agents.list': 'read',
  'approvals.list': 'read',
  'approvals.decide': 'approve',
  'audit.list': 'read',
  'audit.verify': 'read',
  'problems.list': 'read',
  'functions.list': 'read',
  'system.info': 'read',
  'schedules.list': 'read',
  'schedules.patch': 'write',
  'schedules.run': 'call',
  'schedules.latest': 'read',
  // The six below answer for the caller's principal alone (schedules it created; the owner: all).
  'schedules.create': 'write',
  'schedules.search': 'read',
  'schedules.edit': 'write',
  'schedules.delete': 'write',
  'schedules.runs': 'read',
  'schedules.runOutput': 'read',
  'servers.probe': 'write',
  'servers.status': 'read',
  'servers.sync': 'write',
  'servers.stop': 'write',
  'servers.authorize': 'write',
  'tools.definition': 'read',
  'tools.acceptDefinition': 'write',
  'tools.guard': 'read',
  'tools.acceptGuard': 'write',
  'profiles.list': 'read',
  'profiles.get': 'read',
  'profiles.put': 'write',
  'profiles.delete': 'write',
  // A profile token is a way in: handing them out is the admin's.
  'profiles.tokens.list': 'admin',
  'profiles.tokens.create': 'admin',
  'profiles.tokens.revoke': 'admin',
};

/** Routes outside the operations table. */
const OTHER_ROUTES: Record<string, Right> = {
  'GET /tools/events': 'read',
  'GET /tools/bundles/:bundleID/export': 'read',
  'ALL /mcp': 'call',
};

const ROUTE_RIGHTS = new Map<string, Right>(Object.entries(OTHER_ROUTES));
for (const [name, right] of Object.entries(OPERATION_RIGHTS) as [keyof typeof OPERATION_RIGHTS, Right][]) {
  const route = REST_ROUTES[name as OpName & keyof typeof REST_ROUTES];
  ROUTE_RIGHTS.set(`${route.method} ${route.path}`, right);
}

/** The right a matched route needs; a route this table does not know needs admin. */
export function rightFor(method: string, routeUrl: string): Right {
  return ROUTE_RIGHTS.get(`${method} ${routeUrl}`) ?? ROUTE_RIGHTS.get(`ALL ${routeUrl}`) ?? 'admin';
}

export function grants(scopes: readonly string[], right: Right): boolean {
  return scopes.some((s) => GRANTS[s]?.includes(right));
}

/**
 * A profile's address opens to a token that may call tools (`toolwright:call` or admin) or has
 * the profile's own scope; a profile's `requiredScope`, when set, is needed on top. Returns the
 * scope that is missing, or undefined.
 */
export function missingProfileScope(scopes: readonly string[], slug: string, requiredScope: string | undefined): string | undefined {
  const own = `${PROFILE_SCOPE_PREFIX}${slug}`;
  if (!grants(scopes, 'call') && !scopes.includes(own)) return own;
  if (requiredScope && !scopes.includes(requiredScope) && !grants(scopes, 'admin')) return requiredScope;
  return undefined;
}
