/**
 * Chalie tool folders arrive whole (issue 23, point 6): the names the container reads, secrets
 * of two tools that share a key, the manifest's network, an error printed on stdout, "*\/30"
 * triggers and their prompt, the telemetry the seed passes, and manifest fields Toolwright has
 * no use for yet. Real files through the real import path; the runs use a real dockerd.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Dockerode from 'dockerode';
import { v7 as uuidv7 } from 'uuid';
import type { ContainerImpl, ToolFile } from '../../../../shared/schemas.js';
import { containerType } from '../../../../electron/core/tool-types/container/module.js';
import type { RunnerServices } from '../../../../electron/core/tool-types/tool-type.js';
import type { SecretsReader } from '../../../../electron/core/secrets/types.js';
import { BUSYBOX_IMAGE, dockerTestsEnabled, ensureBusyboxImage, runContext } from '../../../helpers/docker.js';
import { freshTransferStores } from '../../../helpers/transfer.js';

const fresh = freshTransferStores(afterAll);

/** A runner that prints back the payload it was given, or an error and exit code 1 when asked. */
const RUNNER_SH = `#!/bin/sh
payload=$(printf '%s' "$1" | base64 -d)
case "$payload" in
  *'"fail":true'*) echo '{"error":"quota exceeded for this key"}'; echo 'failing on purpose' >&2; exit 1 ;;
esac
printf '{"payload":%s}\\n' "$payload"
`;

function manifestOf(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    version: '1.0.0',
    description: 'Weather where the user is',
    category: 'information',
    icon: 'fa-cloud-sun',
    documentation: 'Asks the weather service for the current conditions.',
    trigger: { type: 'cron', schedule: '*/30', prompt: 'Tell the user if it will rain soon.' },
    parameters: { fail: { type: 'boolean', description: 'fail on purpose' } },
    returns: { text: { type: 'string' } },
    config_schema: {
      api_key: { type: 'string', secret: true, description: 'Key of the weather service' },
      units: { type: 'string', default: 'metric' },
    },
    output: { card: { enabled: true, synthesize: false }, notification: { default_enabled: true } },
    synthesize: false,
    ephemeral: true,
    cost_budget: { max_cents: 2 },
    ...extra,
  };
}

function folderOf(manifest: Record<string, unknown>, image = 'busybox') {
  return [
    { path: 'manifest.json', content: JSON.stringify(manifest) },
    { path: 'Dockerfile', content: `FROM ${image}\nCOPY runner.sh /runner.sh\nENTRYPOINT ["/bin/sh", "/runner.sh"]\n` },
    { path: 'runner.sh', content: RUNNER_SH, executable: true },
  ];
}

async function bundle(t: Awaited<ReturnType<typeof fresh>>, slug: string): Promise<string> {
  const bundleID = uuidv7();
  await t.bundles.put(bundleID, { slug });
  return bundleID;
}

function secretsOf(values: Record<string, string>): SecretsReader {
  return { get: (n) => values[n], has: (n) => n in values, values: () => Object.values(values) };
}

describe('Chalie tool folders keep what their manifest says', () => {
  it('keeps config_schema names as the container reads them, and scopes the stored secret per tool', async () => {
    const t = await fresh();
    const bundleID = await bundle(t, 'chalie-names');
    const weather = await t.transfer.importContainerFiles(bundleID, folderOf(manifestOf('weather')));
    const news = await t.transfer.importContainerFiles(bundleID, folderOf(manifestOf('news')));
    const impl = weather.tool.impl as ContainerImpl;
    // The container reads settings.api_key; the app-wide secret store holds a name of this tool's own.
    expect(impl.settings).toEqual({ api_key: { secret: 'WEATHER_API_KEY' }, units: 'metric' });
    expect(impl.secrets).toEqual(['WEATHER_API_KEY']);
    expect((news.tool.impl as ContainerImpl).secrets).toEqual(['NEWS_API_KEY']);
    expect(weather.secrets).toEqual(['WEATHER_API_KEY']);
    expect(weather.warnings.join('\n')).toMatch(/api_key.*stored as the secret WEATHER_API_KEY/);
  });

  it("keeps the manifest's network: bridge when it says nothing, host reported and mapped to bridge", async () => {
    const t = await fresh();
    const bundleID = await bundle(t, 'chalie-network');
    const plain = await t.transfer.importContainerFiles(bundleID, folderOf(manifestOf('plain')));
    expect((plain.tool.impl as ContainerImpl).sandbox?.network).toBe('bridge');
    expect(plain.warnings.join('\n')).toMatch(/network.*bridge/);
    const host = await t.transfer.importContainerFiles(bundleID, folderOf(manifestOf('hosted', { sandbox: { network: 'host', memory: '128m' } })));
    expect((host.tool.impl as ContainerImpl).sandbox).toEqual({ network: 'bridge', memory: '128m' });
    expect(host.warnings.join('\n')).toMatch(/"host".*bridge/);
  });

  it('turns a "*/30" trigger into a schedule every 30 minutes and keeps its prompt', async () => {
    const t = await fresh();
    const bundleID = await bundle(t, 'chalie-trigger');
    const result = await t.transfer.importContainerFiles(bundleID, folderOf(manifestOf('rain')));
    expect(result.tool.schedules?.map((s) => s.cron)).toEqual(['*/30 * * * *']);
    const onDisk = JSON.parse(await readFile(join(t.store.state.tools.get(result.tool.toolID)!.dir, 'tool.json'), 'utf8')) as ToolFile;
    expect(onDisk.extensions).toMatchObject({ chalie: { trigger: { prompt: 'Tell the user if it will rain soon.' } } });
  });

  it('keeps manifest fields it has no use for in extensions, lists them in the report, and exports them again', async () => {
    const t = await fresh();
    const bundleID = await bundle(t, 'chalie-extensions');
    const result = await t.transfer.importContainerFiles(bundleID, folderOf(manifestOf('forecast')));
    const kept = {
      category: 'information',
      icon: 'fa-cloud-sun',
      documentation: 'Asks the weather service for the current conditions.',
      synthesize: false,
      ephemeral: true,
      cost_budget: { max_cents: 2 },
      output: { card: { synthesize: false }, notification: { default_enabled: true } },
    };
    expect(result.tool.extensions).toMatchObject({ chalie: kept });
    expect(result.warnings.join('\n')).toMatch(/kept in tool\.json's extensions\.chalie.*category.*cost_budget.*icon/);
    // Exported and imported again (as a copy), the extensions travel with the tool.
    const { zip } = await t.transfer.exportBundles([bundleID]);
    const other = await fresh();
    const report = await other.transfer.importZip(zip, 'copy');
    const copyID = report.created[0]!.bundleID;
    const copy = other.store.state.tools.get(other.store.state.toolIDsOf(copyID)[0]!)!;
    expect(copy.file.extensions).toMatchObject({ chalie: kept });
  });
});

describe.runIf(await dockerTestsEnabled())('Chalie tool folders in a real container', () => {
  it('get settings under their own names, the seed telemetry fields, and their own error from stdout on exit 1', async () => {
    const docker = new Dockerode();
    await ensureBusyboxImage(docker);
    const t = await fresh();
    const bundleID = await bundle(t, 'chalie-run');
    const result = await t.transfer.importContainerFiles(bundleID, folderOf(manifestOf('weather'), BUSYBOX_IMAGE));
    const rec = t.store.state.tools.get(result.tool.toolID)!;
    const services = { secrets: secretsOf({ WEATHER_API_KEY: 'k-123' }), container: {} } as unknown as RunnerServices;
    const runner = containerType.createRunner(services) as ReturnType<typeof containerType.createRunner> & { close(): Promise<void> };
    try {
      const out = await runner.run(runContext(rec.file, {}, { toolDir: rec.dir }));
      const payload = (out.value as { payload: { settings: Record<string, unknown>; telemetry: Record<string, unknown> } }).payload;
      expect(payload.settings).toEqual({ api_key: 'k-123', units: 'metric' });
      for (const field of ['lat', 'lon', 'location_name', 'city', 'country', 'time', 'locale', 'language']) expect(payload.telemetry).toHaveProperty(field);
      await expect(runner.run(runContext(rec.file, { fail: true }, { toolDir: rec.dir }))).rejects.toMatchObject({
        message: expect.stringContaining('quota exceeded for this key'),
        details: expect.objectContaining({ exitCode: 1 }),
      });
    } finally {
      await runner.close();
    }
  }, 180_000);
});
