/** system.info: where the data lives, what this host can run, and how it is configured. */
import { fileURLToPath } from 'node:url';
import type { AgentAccessStatus, Availability, SystemInfo } from '../../shared/types.js';
import type { ConfigStore } from './config.js';
import type { SecretsStore } from './secrets/secrets-store.js';

export interface SystemServiceDeps {
  dataDir: string;
  builtinDir: string;
  appVersion: string;
  transport: 'ipc' | 'rest';
  config: ConfigStore;
  secrets: SecretsStore;
  /** Health of what runners depend on, by name (`docker`). */
  health: () => Map<string, Availability>;
  /** Set by a host that runs the Agent access listener. */
  agentAccess?: () => AgentAccessStatus;
}

/** bin/toolwright.js of this checkout or install, run by the Node that runs us. */
const BIN = fileURLToPath(new URL('../../bin/toolwright.js', import.meta.url));

export class SystemService {
  constructor(private readonly deps: SystemServiceDeps) {}

  info(): SystemInfo {
    const d = this.deps;
    return {
      dataDir: d.dataDir,
      builtinDir: d.builtinDir,
      appVersion: d.appVersion,
      transport: d.transport,
      docker: d.health().get('docker') ?? { ok: false, reason: 'no container runner' },
      secretsEncryption: d.secrets.encryption,
      config: d.config.get(),
      mcp: { command: process.execPath, args: [BIN, '--data-dir', d.dataDir, 'mcp'] },
      ...(d.agentAccess ? { agentAccess: d.agentAccess() } : {}),
    };
  }
}
