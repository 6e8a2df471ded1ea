/** Building http tools and run contexts for the http runner tests and bench. */
import { DEFAULT_CONFIG, type Config, type HttpImpl, type ToolFile } from '../../shared/schemas.js';
import { CoreError } from '../../electron/core/errors.js';
import type { RunContext, Runner } from '../../electron/core/invoke/types.js';
import type { SecretsReader } from '../../electron/core/secrets/types.js';

export class MemorySecrets implements SecretsReader {
  constructor(private readonly map: Record<string, string> = {}) {}
  get(name: string): string | undefined {
    return Object.prototype.hasOwnProperty.call(this.map, name) ? this.map[name] : undefined;
  }
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }
  values(): string[] {
    return Object.values(this.map);
  }
}

export function httpTool(impl: Partial<HttpImpl> & { urlTemplate: string }, opts: { args?: Record<string, unknown>; output?: unknown } = {}): ToolFile {
  const now = new Date().toISOString();
  return {
    schemaVersion: '1',
    toolID: '0190f000-0000-7000-8000-000000000001',
    bundleID: '0190f000-0000-7000-8000-000000000002',
    slug: 'test-tool',
    version: 'v1',
    displayName: 'Test tool',
    description: '',
    type: 'http',
    isEnabled: true,
    isBuiltIn: false,
    tags: [],
    safety: 'readOnly',
    argSchema: { type: 'object', properties: opts.args ?? {} },
    outputSchema: (opts.output ?? {}) as Record<string, unknown>,
    impl: { method: 'GET', ...impl } as HttpImpl,
    card: { enabled: false },
    limits: {},
    createdAt: now,
    modifiedAt: now,
  };
}

export function testConfig(over: Partial<Config> = {}): Config {
  return { ...DEFAULT_CONFIG, allowedHosts: ['127.0.0.1', 'localhost'], allowPrivateNetwork: true, ...over };
}

export interface InvokeOptions {
  config?: Config;
  secrets?: SecretsReader;
  signal?: AbortSignal;
}

export function runContext(tool: ToolFile, args: Record<string, unknown> = {}, o: InvokeOptions = {}): RunContext {
  return {
    invocationID: 'test',
    tool,
    toolDir: '/nonexistent',
    args,
    config: o.config ?? testConfig(),
    secrets: o.secrets ?? new MemorySecrets(),
    signal: o.signal ?? new AbortController().signal,
  };
}

/** Runs and expects a CoreError; returns it. */
export async function runFailure(runner: Runner, ctx: RunContext): Promise<CoreError> {
  try {
    const out = await runner.run(ctx);
    throw new Error(`expected the call to fail, it gave ${JSON.stringify(out.value)}`);
  } catch (e) {
    if (!(e instanceof CoreError)) throw e;
    return e;
  }
}
