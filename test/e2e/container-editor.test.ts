/**
 * A container tool written in the app, end to end in Chromium against `npm run serve` and the
 * real dockerd: a new tool built from its folder, its Dockerfile and runner typed into the file
 * tree's editor, the image built with the log streaming in, the tool run in the tester; then a
 * broken Dockerfile and its failing step; the folder-layout help from the editor and the import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import Dockerode from 'dockerode';
import type { Page } from 'playwright-core';
import { api, chromiumAvailable, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { BUSYBOX_IMAGE, dockerTestsEnabled, ensureBusyboxImage, removeImagesByLabel } from '../helpers/docker.js';
import { LABEL_TOOL } from '../../electron/core/tool-types/container/labels.js';
import { shoot } from './shots.js';

const dockerOn = await dockerTestsEnabled();
let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
let toolID = '';
const bundleID = uuidv7();

const DOCKERFILE = `FROM ${BUSYBOX_IMAGE}
COPY bin/run.sh /tool/run.sh
RUN echo "installing the runner"
ENTRYPOINT ["/bin/sh", "/tool/run.sh"]
`;

const RUNNER = `#!/bin/sh
payload=$(printf '%s' "$1" | base64 -d)
name=$(printf '%s' "$payload" | sed -n 's/.*"name":"\\([^"]*\\)".*/\\1/p')
printf '{"text":"hello %s from a container"}\\n' "$name"
`;

async function typeInEditor(text: string): Promise<void> {
  const editor = page.getByTestId('file-editor');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function newFile(path: string): Promise<void> {
  await page.getByTestId('new-file').click();
  await page.getByTestId('file-path-input').fill(path);
  await page.getByTestId('file-path-input').press('Enter');
  await expect.poll(() => page.getByTestId('open-file').textContent()).toBe(path);
}

describe.skipIf(!chromiumAvailable() || !dockerOn)('a container tool authored in the app', () => {
  beforeAll(async () => {
    await ensureBusyboxImage(new Dockerode());
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'bundles.put', { bundleID, bundle: { slug: 'workshop', displayName: 'Workshop', isEnabled: true } });
      },
    });
    ({ host, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
    if (toolID) await removeImagesByLabel(new Dockerode(), `${LABEL_TOOL}=${toolID}`);
  });

  it('creates a tool built from its folder and lands on its (empty) files', async () => {
    await page.goto(`${host.url}/#/bundle/${bundleID}/new-tool`);
    await page.getByTestId('tool-slug').fill('greeter');
    await page.getByTestId('tool-version').fill('v1');
    await page.getByTestId('tool-name').fill('Greeter');
    await page.getByTestId('tool-type').selectOption('container');
    await page.getByRole('radio', { name: /Build from the tool's folder/ }).check();
    await expect.poll(() => page.getByTestId('container-folder-new').textContent()).toMatch(/create the tool first/);
    await page.getByLabel('Argument schema (JSON Schema)').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}');
    await page.getByTestId('tool-save').click();
    await page.getByTestId('container-folder').waitFor();
    expect(page.url()).toMatch(/\/edit$/);
    expect(await page.getByTestId('file-tree').textContent()).toMatch(/No files yet/);
    toolID = (await api(host, 'tools.get', { bundleID, slug: 'greeter', version: 'v1' })).toolID;
  });

  it('writes a Dockerfile and a runner in the editor, saved into the tool folder', async () => {
    await newFile('Dockerfile');
    await typeInEditor(DOCKERFILE);
    expect(await page.getByTestId('file-tree').locator('.file-dirty').count()).toBe(1);
    await page.keyboard.press('Control+s'); // saves the file, not the tool form
    await expect.poll(() => page.getByTestId('file-tree').locator('.file-dirty').count()).toBe(0);
    expect(page.url()).toMatch(/\/edit$/);

    await newFile('bin/run.sh');
    await typeInEditor(RUNNER);
    await page.getByTestId('save-file').click();
    await expect.poll(() => page.getByTestId('file-tree').locator('.file-dirty').count()).toBe(0);
    expect(await page.getByTestId('file-tree').textContent()).toMatch(/bin\/.*run\.sh/);

    const saved = await api(host, 'buildFiles.read', { bundleID, slug: 'greeter', version: 'v1', path: 'bin/run.sh' });
    expect(saved).toMatchObject({ content: RUNNER, executable: true });
    expect((await api(host, 'buildFiles.read', { bundleID, slug: 'greeter', version: 'v1', path: 'Dockerfile' })).content).toBe(DOCKERFILE);
  });

  it('builds the image with the log streaming in, and shows its size', async () => {
    await page.getByTestId('build-image').click();
    // The log fills while the build runs (its steps come as build.log events).
    await expect.poll(() => page.getByTestId('build-log').textContent(), { timeout: 60_000 }).toMatch(/Step 1\/\d+ : FROM toolwright-test\/busybox:1/);
    await expect.poll(() => page.getByTestId('build-result').textContent(), { timeout: 120_000 }).toMatch(/built.*in .*·\s*\d[\d.]*\s*(KB|MB)/);
    expect(await page.getByTestId('build-log').textContent()).toMatch(/installing the runner/);
    await expect.poll(() => page.getByTestId('image-status').textContent()).toMatch(/up to date.*toolwright\/tool-.*\d[\d.]*\s*(KB|MB)/s);
    await shoot(page, 'container-editor-files', { scrollTo: 'container-folder' });
    await shoot(page, 'container-build-log', { scrollTo: 'build-panel' });
  });

  it('runs the tool in the tester', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/greeter/v1`);
    await page.getByTestId('tester').waitFor();
    await page.locator('#arg_name').fill('Ada');
    await page.getByTestId('run').click();
    await expect.poll(() => page.getByTestId('result-panel').locator('.result-meta').textContent(), { timeout: 60_000 }).toMatch(/ok/);
    expect(await page.getByTestId('result-value').textContent()).toContain('hello Ada from a container');
  });

  it('shows a failing build with its step, marked in the log', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/greeter/v1/edit`);
    await page.getByTestId('file-Dockerfile').click();
    await typeInEditor(DOCKERFILE.replace('RUN echo "installing the runner"', 'RUN echo "checking" && exit 7'));
    // Unsaved files are saved by the build button itself.
    await expect.poll(() => page.getByTestId('build-image').textContent()).toMatch(/Save file and build/);
    await page.getByTestId('build-image').click();
    await expect.poll(() => page.getByTestId('build-error').textContent(), { timeout: 120_000 }).toMatch(/failed at step 3 of \d+/);
    expect(await page.getByTestId('build-error').textContent()).toMatch(/RUN echo "checking" && exit 7.*non-zero code: 7/s);
    expect(await page.getByTestId('build-log').locator('.log-failed').textContent()).toMatch(/^Step 3\/\d+ : RUN echo "checking"/);
    await expect.poll(() => page.getByTestId('image-status').textContent()).toMatch(/older files/);
    await shoot(page, 'container-build-failed', { scrollTo: 'build-panel' });
  });

  it('explains the folder layout from the editor and from the import entry', async () => {
    await page.getByTestId('container-folder').getByTestId('container-help').click();
    const dialog = page.getByTestId('container-help-dialog');
    await expect.poll(() => dialog.getByTestId('container-help-content').textContent()).toMatch(/manifest\.json.*Dockerfile.*one argument.*one JSON object/s);
    await shoot(page, 'container-help', {});
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);

    await page.goto(`${host.url}/#/tools`);
    await page.getByTestId('import-folder-help').click();
    await expect.poll(() => page.getByTestId('container-help-content').isVisible()).toBe(true);
    expect(await page.getByTestId('container-help-content').textContent()).toMatch(/config_schema/);
    await page.keyboard.press('Escape');
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
