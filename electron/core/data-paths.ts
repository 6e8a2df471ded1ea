/** Where each file of the data directory lives (docs/contracts.md, "Data on disk"). */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { toolKey } from '../../shared/slug.js';

export class DataPaths {
  constructor(readonly dataDir: string) {}

  get bundlesDir(): string {
    return join(this.dataDir, 'bundles');
  }
  get configFile(): string {
    return join(this.dataDir, 'config.json');
  }
  get secretsFile(): string {
    return join(this.dataDir, 'secrets.json');
  }
  get secretsKeyFile(): string {
    return join(this.dataDir, 'secrets.key');
  }
  get builtinStateFile(): string {
    return join(this.dataDir, 'builtin-state.json');
  }
  get metricsDir(): string {
    return join(this.dataDir, 'metrics');
  }
  get agentsDir(): string {
    return join(this.dataDir, 'agents');
  }
  get approvalsDir(): string {
    return join(this.dataDir, 'approvals');
  }
  /** Runs in progress and cancel requests, across processes (invoke/running.ts). */
  get invocationsDir(): string {
    return join(this.dataDir, 'invocations');
  }
  /** Agents' tasks (MCP tasks extension), one file each, readable by every process (agents/tasks.ts). */
  get tasksDir(): string {
    return join(this.dataDir, 'tasks');
  }
  /** Each rate-limited tool's calls of the last minute, shared by every process (invoke/shared-rate-limit.ts). */
  get rateLimitsDir(): string {
    return join(this.dataDir, 'rate-limits');
  }
  /** The append-only, hash-chained audit log (electron/core/audit/). */
  get auditDir(): string {
    return join(this.dataDir, 'audit');
  }
  get historyDir(): string {
    return join(this.dataDir, 'history');
  }
  /** The scheduler's lease, fire claims, last runs and latest outputs (electron/core/schedules/). */
  get schedulerDir(): string {
    return join(this.dataDir, 'scheduler');
  }
  /** Profiles: one folder per profile with profile.json and tokens.json (core/profiles/). */
  get profilesDir(): string {
    return join(this.dataDir, 'profiles');
  }
  /** Held while a profile is created, renamed or deleted, so two profiles never get one slug. */
  get profilesLock(): string {
    return join(this.profilesDir, '.lock');
  }
  profileDir(profileID: string): string {
    return join(this.profilesDir, profileID);
  }
  profileFile(profileID: string): string {
    return join(this.profileDir(profileID), 'profile.json');
  }
  profileTokensFile(profileID: string): string {
    return join(this.profileDir(profileID), 'tokens.json');
  }
  profileLock(profileID: string): string {
    return join(this.profileDir(profileID), '.lock');
  }
  /** Lock guarding data-dir-wide files (config, builtin-state, secrets). */
  get rootLock(): string {
    return join(this.dataDir, '.lock');
  }
  /** Staging area for imports, inside the data dir so the final move is a rename. */
  get stagingDir(): string {
    return join(this.dataDir, '.staging');
  }
  bundleDir(bundleID: string): string {
    return join(this.bundlesDir, bundleID);
  }
  bundleFile(bundleID: string): string {
    return join(this.bundleDir(bundleID), 'bundle.json');
  }
  bundleLock(bundleID: string): string {
    return join(this.bundleDir(bundleID), '.lock');
  }
  toolsDir(bundleID: string): string {
    return join(this.bundleDir(bundleID), 'tools');
  }
  toolDir(bundleID: string, toolID: string): string {
    return join(this.toolsDir(bundleID), toolID);
  }
  toolFile(bundleID: string, toolID: string): string {
    return join(this.toolDir(bundleID, toolID), 'tool.json');
  }
  /** A tool being written, invisible to loaders until renamed into place. */
  toolStagingDir(bundleID: string, toolID: string): string {
    return join(this.toolsDir(bundleID), `.staging-${toolID}`);
  }
  claimsDir(bundleID: string): string {
    return join(this.bundleDir(bundleID), '.claims');
  }
  /**
   * The claim of a <slug,version> pair: a file holding the owning toolID. Its name is a hash,
   * never the slug itself, because slugs are case-sensitive and macOS/Windows file systems are not.
   */
  claimFile(bundleID: string, slug: string, version: string): string {
    const h = createHash('sha256').update(toolKey(slug, version), 'utf8').digest('hex');
    return join(this.claimsDir(bundleID), h);
  }
}
