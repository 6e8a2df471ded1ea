/**
 * The audit log is read by people: a change record names what changed (the bundle or tool by its
 * display name, slug and version, as it was then; which settings or secrets), the operation and
 * who, and keeps the file's path for the detail. Through a real core; the one line the app shows
 * is shared/audit.ts's auditSummary.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { v7 as uuidv7 } from 'uuid';
import { createCore, type Core } from '../../../../electron/core/app-core.js';
import { describeChange } from '../../../../electron/core/audit/change-subject.js';
import { auditSummary, auditWho, type AuditRecord } from '../../../../shared/audit.js';
import { httpTool, tempDir } from '../../../helpers/store.js';
import { auditRecordsNow } from '../../../helpers/serve-process.js';

let core: Core | undefined;
let dataDir = '';
afterAll(async () => {
  await core?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('change records name what changed', () => {
  it('bundles and tools by name, switches, the Trash, settings and secrets by name, and who', async () => {
    dataDir = await tempDir('tw-audit-names-');
    core = await createCore({ dataDir, docker: false, actor: 'app' });
    await core.config.patch({ allowedHosts: ['api.example.com'] });
    await core.audit.flush();
    const after = auditRecordsNow(dataDir).length;
    const bundleID = uuidv7();
    const ref = { bundleID, slug: 'forecast', version: 'v1' };
    // Through the dispatcher with an OAuth caller, as REST would.
    const put = await core.dispatch(
      'bundles.put',
      { bundleID, bundle: { slug: 'weather', displayName: 'Weather tools' } },
      { caller: { transport: 'rest', name: 'rest', subject: 'alice' } },
    );
    expect(put.ok).toBe(true);
    const tool = await core.tools.create(ref, httpTool('https://api.example.com/forecast', { displayName: 'Forecast' }));
    await core.tools.setEnabled(ref, false);
    await core.tools.update(ref, httpTool('https://api.example.com/forecast', { displayName: 'Forecast', description: 'Tomorrow, by city', isEnabled: false }));
    await core.tools.delete(ref);
    await core.bundles.softDelete(bundleID);
    await core.bundles.restore(bundleID);
    await core.secrets.set('WEATHER_KEY', 'sk-not-in-the-log');
    await core.config.patch({ toolsEnabled: false });
    // Core services called directly (not through the dispatcher) do not wait for their records.
    await core.audit.flush();

    const records = auditRecordsNow(dataDir).slice(after) as AuditRecord[];
    const lines = records.filter((r) => r.kind === 'change').map((r) => `${auditSummary(r)} — ${auditWho(r)}`);
    expect(lines).toEqual([
      'Created bundle “Weather tools” (weather) — rest@oauth:alice',
      'Created tool “Forecast” (forecast v1) — app',
      'Switched off tool “Forecast” (forecast v1) — app',
      'Changed tool “Forecast” (forecast v1): description — app',
      'Deleted tool “Forecast” (forecast v1) — app',
      'Moved to the Trash bundle “Weather tools” (weather) — app',
      'Restored from the Trash bundle “Weather tools” (weather) — app',
      'Set or removed secrets: WEATHER_KEY — app',
      'Changed the settings: toolsEnabled — app',
    ]);
    // The path stays in the record (the detail shows it); the subject carries the IDs.
    const deleted = records.find((r) => r.kind === 'change' && r.op === 'delete');
    expect(deleted).toMatchObject({
      path: `bundles/${bundleID}/tools/${tool.toolID}/tool.json`,
      subject: { type: 'tool', toolID: tool.toolID, bundleID, slug: 'forecast', version: 'v1', displayName: 'Forecast' },
    });
    expect(JSON.stringify(records)).not.toContain('sk-not-in-the-log');
    const filtered = await core.audit.flush().then(() => core!.dispatch('audit.list', { tool: 'forecast', kind: ['change'] }));
    expect(filtered.ok && filtered.data.items.length).toBe(4);
  });

  it('names a record written before changes were named by its path, and never reads a value', () => {
    expect(auditSummary({ kind: 'change', path: 'bundles/01a22551-65b0-7000-8000-000000000001/bundle.json', op: 'create', actor: 'rest' })).toBe(
      'Created bundle 01a22551-65b0…',
    );
    const secrets = (names: Record<string, string>) => JSON.stringify({ schemaVersion: '1', secrets: names });
    expect(describeChange('secrets.json', secrets({ A: 'enc1', B: 'enc2' }), secrets({ A: 'enc9', C: 'enc3' }))).toEqual({
      subject: { type: 'secrets' },
      changed: ['A', 'B', 'C'],
    });
    expect(describeChange('bundles/x/tools/y/tool.json', '{not json', undefined)).toEqual({ subject: { type: 'tool' } });
  });
});
