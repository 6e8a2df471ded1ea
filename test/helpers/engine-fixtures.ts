/**
 * Test doubles for the engine's collaborators: runners (objects implementing the Runner
 * interface), a secrets reader, a metrics recorder that remembers its calls, a clock the test
 * moves by hand. The runners themselves are tested for real by their own suites.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { DEFAULT_CONFIG, type BundleFile, type Config, type ToolFile } from '../../shared/schemas.js';
import type { Availability } from '../../shared/types.js';
import { InvocationEngine, type EngineDeps, type EngineTool } from '../../electron/core/invoke/engine.js';
import { HistoryStore } from '../../electron/core/invoke/history.js';
import type { RecordSink } from '../../electron/core/audit/changes.js';
import type { RunContext, RunOutput, Runner } from '../../electron/core/invoke/types.js';
import type { SecretsReader } from '../../electron/core/secrets/types.js';

export function toolFile(overrides: Partial<ToolFile> = {}): ToolFile {
  const bundleID = overrides.bundleID ?? uuidv7();
  return {
    schemaVersion: '1',
    toolID: uuidv7(),
    bundleID,
    slug: 'weather',
    version: 'v1',
    displayName: 'Weather',
    description: 'Weather for a city',
    type: 'function',
    isEnabled: true,
    isBuiltIn: false,
    tags: [],
    safety: 'readOnly',
    argSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        unit: { enum: ['c', 'f'] },
      },
      required: ['city'],
      additionalProperties: false,
    },
    outputSchema: {},
    impl: { function: 'test.echo' },
    card: { enabled: true, title: 'Weather in {{city}}' },
    limits: {},
    createdAt: '2026-05-14T13:44:00.000Z',
    modifiedAt: '2026-05-14T13:44:00.000Z',
    ...overrides,
  } as ToolFile;
}

export function bundleFile(overrides: Partial<BundleFile> = {}): BundleFile {
  return {
    schemaVersion: '1',
    bundleID: uuidv7(),
    slug: 'b',
    displayName: 'B',
    description: '',
    isEnabled: true,
    isBuiltIn: false,
    createdAt: '2026-05-14T13:44:00.000Z',
    modifiedAt: '2026-05-14T13:44:00.000Z',
    softDeletedAt: null,
    ...overrides,
  };
}

export function engineTool(file: ToolFile = toolFile()): EngineTool {
  return { file, dir: `/tools/${file.toolID}`, builtin: false };
}

/** A runner whose behaviour each test sets; it records every context it was given. */
export class FakeRunner implements Runner {
  readonly calls: RunContext[] = [];
  availabilityAnswer: Availability = { ok: true };
  behaviour: (ctx: RunContext) => Promise<RunOutput> | RunOutput = (ctx) => ({ value: { echo: ctx.args } });

  constructor(readonly type: ToolFile['type'] = 'function') {}

  async run(ctx: RunContext): Promise<RunOutput> {
    this.calls.push(ctx);
    return this.behaviour(ctx);
  }

  availability(): Availability {
    return this.availabilityAnswer;
  }
}

export class FakeSecrets implements SecretsReader {
  constructor(readonly map: Record<string, string> = {}) {}
  get(name: string): string | undefined {
    return this.map[name];
  }
  has(name: string): boolean {
    return name in this.map;
  }
  values(): string[] {
    return Object.values(this.map);
  }
}

export class RecordingMetrics {
  readonly calls: Array<{ toolID: string; ok: boolean }> = [];
  record(toolID: string, ok: boolean): void {
    this.calls.push({ toolID, ok });
  }
}

export class ManualClock {
  constructor(public ms = Date.parse('2026-06-01T09:00:00.000Z')) {}
  readonly now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface Harness {
  engine: InvocationEngine;
  runner: FakeRunner;
  secrets: FakeSecrets;
  metrics: RecordingMetrics;
  history: HistoryStore;
  clock: ManualClock;
  config: Config;
  dir: string;
  backgroundErrors: Array<{ what: string; error: unknown }>;
  cleanup: () => Promise<void>;
}

export async function harness(
  opts: { secrets?: Record<string, string>; config?: Partial<Config>; runners?: Runner[]; history?: HistoryStore; audit?: RecordSink } = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'tw-engine-'));
  const runner = new FakeRunner('function');
  const secrets = new FakeSecrets(opts.secrets ?? {});
  const metrics = new RecordingMetrics();
  const history = opts.history ?? new HistoryStore(join(dir, 'history'));
  const clock = new ManualClock();
  const config: Config = { ...DEFAULT_CONFIG, limits: { ...DEFAULT_CONFIG.limits }, ...opts.config };
  const backgroundErrors: Harness['backgroundErrors'] = [];
  const deps: EngineDeps = {
    runners: opts.runners ?? [runner],
    config: () => config,
    secrets,
    metrics,
    history,
    clock: clock.now,
    onBackgroundError: (what, error) => backgroundErrors.push({ what, error }),
    ...(opts.audit ? { audit: opts.audit } : {}),
  };
  const engine = new InvocationEngine(deps);
  return {
    engine,
    runner,
    secrets,
    metrics,
    history,
    clock,
    config,
    dir,
    backgroundErrors,
    cleanup: async () => {
      await history.flush().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves with the rejection of p (fails the test when p resolves). */
export async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected a refusal, but the call succeeded');
}
