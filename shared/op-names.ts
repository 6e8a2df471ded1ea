/**
 * The names of the operations, as a plain list: what the preload and the renderer's client
 * need, without the TypeBox schemas of operations.ts (which stay main's business and would
 * make the preload ~120 KB). operations.ts checks at compile time that this list and its table
 * name the same operations, so an operation added there and forgotten here does not build.
 */
export const OP_NAMES = [
  'bundles.list',
  'bundles.get',
  'bundles.put',
  'bundles.patch',
  'bundles.delete',
  'bundles.restore',
  'bundles.purge',
  'tools.list',
  'tools.get',
  'tools.put',
  'tools.update',
  'tools.patch',
  'tools.delete',
  'tools.search',
  'tools.invoke',
  'tools.cancel',
  'tools.history',
  'config.get',
  'config.patch',
  'secrets.list',
  'secrets.set',
  'secrets.delete',
  'agents.list',
  'approvals.list',
  'approvals.decide',
  'audit.list',
  'audit.verify',
  'problems.list',
  'functions.list',
  'system.info',
  'bundles.export',
  'bundles.import',
  'bundles.importSkill',
  'bundles.importOpenApi',
  'bundles.importMcpServers',
  'tools.importContainer',
  'tools.openaiFunctions',
  'tools.lint',
  'schedules.list',
  'schedules.patch',
  'schedules.run',
  'schedules.latest',
  'servers.probe',
  'servers.status',
  'servers.sync',
  'servers.stop',
  'servers.authorize',
  'tools.definition',
  'tools.acceptDefinition',
  'tools.acceptGuard',
  'buildFiles.list',
  'buildFiles.read',
  'buildFiles.write',
  'buildFiles.rename',
  'buildFiles.delete',
  'tools.build',
  'tools.image',
  'profiles.list',
  'profiles.get',
  'profiles.put',
  'profiles.delete',
  'profiles.tokens.list',
  'profiles.tokens.create',
  'profiles.tokens.revoke',
] as const;

export type ListedOpName = (typeof OP_NAMES)[number];

/** `bundles.list` → `bundlesList`: the name of the preload function for an operation. */
export function opFunctionName(name: ListedOpName): string {
  return name.replace(/\.([a-z])/g, (_m, c: string) => c.toUpperCase());
}
