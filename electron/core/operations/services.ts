/**
 * What the operation handlers may call: one narrow interface per service, each method one
 * operation's work. The composition root (app-core.ts) satisfies it with the real services;
 * handlers import only these types, so they never see the root or each other.
 */
import type { OpInput, BundleInput, ToolInput } from '../../../shared/operations.js';
import type { ToolSearchLearningView } from '../../../shared/operations/tools.js';
import type { Config } from '../../../shared/schemas.js';
import type {
  BundleView,
  ContainerImportResult,
  FunctionInfo,
  HistoryEntry,
  ImportReport,
  InvokeResult,
  OpenAiFunction,
  Page,
  Problem,
  ScheduleOutput,
  ScheduleView,
  SearchHit,
  SecretInfo,
  SystemInfo,
  ToolLintFinding,
  ToolView,
} from '../../../shared/types.js';
import type { ToolRef } from '../store/tools.js';
import type { ApprovalStore } from '../agents/approvals.js';
import type { AgentConnections } from '../agents/connections.js';
import type { InvokeInput } from '../invoke/engine.js';
import type { ScheduleManager } from '../schedules/schedule-manager.js';
import type { FolderFile } from '../transfer/foreign/container-folder.js';
import type { OnConflict } from '../transfer/apply.js';
import type { OpenApiOptions } from '../transfer/foreign/openapi.js';
import type { BuildFilesService } from '../tool-files/build-files.js';
import type { BuildService } from '../tool-files/builds.js';
import type { DefinitionPolicy } from '../guard/definition-policy.js';
import type { ProfileService } from '../profiles/profile-service.js';
import type { AuditRecord, AuditVerifyResult } from '../../../shared/audit.js';
import type { AgentSurface } from '../agent-surface/agent-surface.js';

export interface Services {
  /** The agent door (agent-surface/): what an agent is offered and what its calls come to. */
  agentSurface: Pick<
    AgentSurface,
    'surface' | 'call' | 'resources' | 'scheduleLatest' | 'taskGet' | 'taskUpdate' | 'taskCancel' | 'door' | 'connect' | 'disconnect'
  >;
  profiles: Pick<ProfileService, 'list' | 'get' | 'put' | 'delete' | 'listTokens' | 'createToken' | 'revokeToken'>;
  audit: { list(filter: OpInput<'audit.list'>): Promise<Page<AuditRecord>>; verify(): Promise<AuditVerifyResult> };
  guard: Pick<DefinitionPolicy, 'review' | 'accept'>;
  buildFiles: Pick<BuildFilesService, 'list' | 'read' | 'write' | 'rename' | 'delete'>;
  builds: Pick<BuildService, 'build' | 'image'>;
  trash: { purge(bundleID: string): Promise<{ purged: true; toolCount: number }> };
  agents: Pick<AgentConnections, 'list'>;
  approvals: Pick<ApprovalStore, 'list' | 'decide'>;
  bundles: {
    list(input: OpInput<'bundles.list'>): Page<BundleView>;
    get(bundleID: string): Promise<BundleView>;
    put(bundleID: string, input: BundleInput, ifMatch?: string): Promise<{ bundle: BundleView; created: boolean }>;
    patch(bundleID: string, isEnabled: boolean, ifMatch?: string): Promise<BundleView>;
    softDelete(bundleID: string): Promise<BundleView>;
    restore(bundleID: string): Promise<BundleView>;
  };
  tools: {
    list(input: OpInput<'tools.list'>): Page<ToolView>;
    get(ref: ToolRef): Promise<ToolView>;
    create(ref: ToolRef, input: ToolInput): Promise<ToolView>;
    update(ref: ToolRef, input: ToolInput, ifMatch?: string): Promise<ToolView>;
    setEnabled(ref: ToolRef, isEnabled: boolean, ifMatch?: string): Promise<ToolView>;
    delete(ref: ToolRef): Promise<void>;
  };
  search: {
    search(input: OpInput<'tools.search'>): Page<SearchHit>;
    learning: { show(toolID: string): ToolSearchLearningView; reset(toolID?: string): Promise<{ reset: number }> };
  };
  lint: { lint(input: OpInput<'tools.lint'>): { items: ToolLintFinding[]; checked: number } };
  schedules: {
    list(filter: { toolID?: string }): Promise<{ items: ScheduleView[] }>;
    setEnabled(scheduleID: string, isEnabled: boolean): Promise<ScheduleView>;
    runNow(scheduleID: string, options: { confirm?: boolean }): Promise<InvokeResult>;
    latest(scheduleID: string): Promise<ScheduleOutput>;
  };
  /** Schedules as a principal manages them: each answers for the caller's principal alone. */
  scheduleManager: Pick<ScheduleManager, 'create' | 'search' | 'edit' | 'delete' | 'runs' | 'runOutput'>;
  invocations: {
    invoke(ref: ToolRef, input: InvokeInput): Promise<InvokeResult>;
    cancel(invocationID: string): Promise<{ cancelled: boolean }>;
    recent(ref: ToolRef, limit?: number): Promise<{ items: HistoryEntry[] }>;
  };
  config: { get(): Config; patch(patch: Partial<Config>): Promise<Config> };
  secrets: { list(): SecretInfo[]; set(name: string, value: string): Promise<SecretInfo>; remove(name: string): Promise<{ deleted: true }> };
  problems: { list(): { items: Problem[] } };
  functions: { list(): FunctionInfo[] };
  system: { info(): SystemInfo };
  transfer: {
    exportBundles(bundleIDs: string[]): Promise<{ zip: Uint8Array; fileName: string }>;
    importZip(zip: Uint8Array, onConflict: OnConflict, options: { dryRun?: boolean }): Promise<ImportReport>;
    importSkillMd(text: string, options: { dryRun?: boolean }): Promise<ImportReport>;
    importOpenApi(doc: string, options: { dryRun?: boolean } & OpenApiOptions): Promise<ImportReport>;
    importContainerFiles(bundleID: string, files: FolderFile[], options?: { dryRun?: boolean }): Promise<ContainerImportResult>;
    openAiFunctions(bundleIDs?: string[]): OpenAiFunction[];
  };
}
