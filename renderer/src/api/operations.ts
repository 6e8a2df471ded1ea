/**
 * The operations the renderer's screens and components call outside React Query's hooks, one
 * named function each, so that only renderer/src/api/ knows the transport (api/client.ts).
 */
import type { OpInput, OpName, OpOutput } from '../../../shared/operations.js';
import { call, invokeStream } from './client.js';

function operation<N extends OpName>(name: N): (input: OpInput<N>, signal?: AbortSignal) => Promise<OpOutput<N>> {
  return (input, signal) => call(name, input, signal);
}

export const getSystemInfo = operation('system.info');
export const getConfig = operation('config.get');
export const verifyAudit = operation('audit.verify');
export const patchConfig = operation('config.patch');
export const setSecret = operation('secrets.set');
export const deleteSecret = operation('secrets.delete');

export const listBundles = operation('bundles.list');
export const putBundle = operation('bundles.put');
export const importBundles = operation('bundles.import');
export const openApiImport = operation('bundles.importOpenApi');
export const mcpServersImport = operation('bundles.importMcpServers');
export const skillImport = operation('bundles.importSkill');
export const bundlesExport = operation('bundles.export');

export const listTools = operation('tools.list');
export const getTool = operation('tools.get');
export const putTool = operation('tools.put');
export const updateTool = operation('tools.update');
export const searchTools = operation('tools.search');
export const resetSearchLearning = operation('tools.searchLearningReset');
export const importContainerTool = operation('tools.importContainer');
export const openaiFunctions = operation('tools.openaiFunctions');
export const buildToolImage = operation('tools.build');
export const cancelInvocation = operation('tools.cancel');
/** tools.invoke with the run's output streamed as it happens (see client.ts). */
export const invokeToolStreamed = invokeStream;

export const readBuildFile = operation('buildFiles.read');
export const writeBuildFile = operation('buildFiles.write');
export const renameBuildFile = operation('buildFiles.rename');
export const deleteBuildFile = operation('buildFiles.delete');

export const getToolConfig = operation('toolConfig.get');
export const putToolConfig = operation('toolConfig.put');
export const testToolConfig = operation('toolConfig.test');

export const decideApproval = operation('approvals.decide');
export const patchSchedule = operation('schedules.patch');
export const runSchedule = operation('schedules.run');

export const probeServer = operation('servers.probe');
export const syncServer = operation('servers.sync');
export const stopServer = operation('servers.stop');
export const authorizeServer = operation('servers.authorize');
export const acceptDefinition = operation('tools.acceptDefinition');
export const acceptGuard = operation('tools.acceptGuard');

export const putProfile = operation('profiles.put');
export const deleteProfile = operation('profiles.delete');
export const createProfileToken = operation('profiles.tokens.create');
export const revokeProfileToken = operation('profiles.tokens.revoke');
