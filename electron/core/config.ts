/**
 * config.json: allowedHosts, private-network switch, kill switch, workspace root, default
 * limits. A malformed file is reported as a problem and never overwritten: the app runs on
 * defaults and refuses to save until the file is fixed or removed.
 */
import { EventEmitter } from 'node:events';
import { isAbsolute } from 'node:path';
import { Config as ConfigSchema, CONFIG_KEY_ORDER, DEFAULT_CONFIG, type Config } from '../../shared/schemas.js';
import { checkHostPattern, normalizeHostPattern } from '../../shared/net/hosts.js';
import type { FieldIssue } from '../../shared/errors.js';
import type { Problem } from '../../shared/types.js';
import { CoreError, invalid } from './errors.js';
import { checkAgainst } from './validation.js';
import { readJsonFile, writeJsonFile } from './fs/json-file.js';
import { withLock } from './fs/lock.js';
import type { DataPaths } from './data-paths.js';
import { problem } from './problems.js';
import { contentBefore, type ChangeRecorder } from './audit/changes.js';

function describeIssues(issues: FieldIssue[]): string | undefined {
  return issues.length ? issues.map((i) => `${i.field} ${i.message}`).join('; ') : undefined;
}

function semanticIssues(c: Config): FieldIssue[] {
  const issues: FieldIssue[] = [];
  c.allowedHosts.forEach((h, i) => {
    const msg = checkHostPattern(h);
    if (msg) issues.push({ field: `allowedHosts[${i}]`, message: msg });
  });
  if (c.workspaceRoot !== null && !isAbsolute(c.workspaceRoot)) {
    issues.push({ field: 'workspaceRoot', message: 'must be an absolute folder path (or null to turn file tools off)' });
  }
  return issues;
}

export class ConfigStore extends EventEmitter<{ changed: [Config] }> {
  private current: Config = structuredClone(DEFAULT_CONFIG);
  private bad: Problem | undefined;

  constructor(
    private readonly paths: DataPaths,
    private readonly changes?: ChangeRecorder,
  ) {
    super();
  }

  static async open(paths: DataPaths, changes?: ChangeRecorder): Promise<ConfigStore> {
    const s = new ConfigStore(paths, changes);
    await s.reload();
    return s;
  }

  get(): Config {
    return this.current;
  }

  problem(): Problem | undefined {
    return this.bad;
  }

  /** Re-reads config.json (at start and when the watcher sees it change). Returns true if it changed. */
  async reload(): Promise<boolean> {
    const r = await readJsonFile<Partial<Config>>(this.paths.configFile, (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be a JSON object';
      const merged = {
        ...DEFAULT_CONFIG,
        ...(v as object),
        limits: { ...DEFAULT_CONFIG.limits, ...((v as Partial<Config>).limits ?? {}) },
        agentAccess: { ...DEFAULT_CONFIG.agentAccess, ...((v as Partial<Config>).agentAccess ?? {}) },
      };
      return describeIssues([...checkAgainst(ConfigSchema, merged), ...(checkAgainst(ConfigSchema, merged).length ? [] : semanticIssues(merged as Config))]);
    });
    const before = JSON.stringify(this.current);
    if (r.kind === 'bad') {
      this.bad = problem(
        this.paths.configFile,
        'config',
        `config.json ${r.reason.startsWith('is ') || r.reason.startsWith('cannot') ? r.reason : `is invalid: ${r.reason}`}`,
      );
      this.current = structuredClone(DEFAULT_CONFIG);
    } else {
      this.bad = undefined;
      const v = r.kind === 'ok' ? r.value : {};
      this.current = {
        ...DEFAULT_CONFIG,
        ...v,
        limits: { ...DEFAULT_CONFIG.limits, ...(v.limits ?? {}) },
        agentAccess: { ...DEFAULT_CONFIG.agentAccess, ...(v.agentAccess ?? {}) },
      };
    }
    const changed = before !== JSON.stringify(this.current);
    if (changed) this.emit('changed', this.current);
    return changed;
  }

  async patch(patch: Partial<Config>): Promise<Config> {
    return withLock(this.paths.rootLock, async () => {
      await this.reload();
      if (this.bad) {
        throw new CoreError('CONFLICT', `${this.bad.reason}. Settings cannot be saved until ${this.paths.configFile} is fixed or removed.`);
      }
      const next: Config = {
        ...this.current,
        ...patch,
        limits: { ...this.current.limits, ...(patch.limits ?? {}) },
        agentAccess: { ...this.current.agentAccess, ...(patch.agentAccess ?? {}) },
      };
      if (patch.allowedHosts) next.allowedHosts = [...new Set(patch.allowedHosts.map(normalizeHostPattern))];
      const issues = [...checkAgainst(ConfigSchema, next), ...semanticIssues(next)];
      if (issues.length) throw invalid(issues);
      const before = await this.changes?.before(this.paths.configFile);
      await writeJsonFile(this.paths.configFile, next as unknown as Record<string, unknown>, CONFIG_KEY_ORDER);
      this.changes?.changed(this.paths.configFile, before, await contentBefore(this.paths.configFile));
      const changed = JSON.stringify(next) !== JSON.stringify(this.current);
      this.current = next;
      if (changed) this.emit('changed', next);
      return next;
    });
  }
}
