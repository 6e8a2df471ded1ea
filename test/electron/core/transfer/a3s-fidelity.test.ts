/**
 * A3S skills arrive whole (issue 23, point 7): the seed's default timeouts, bash scripts under
 * real bash, zsh scripts and binary backends in an image that has them, and a refusal with the
 * reason only for what no image can have. Real import path; the runs use a real dockerd with
 * images made from Debian's bash-static and zsh-static (no registry is reachable here).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Dockerode from 'dockerode';
import type { ContainerImpl, HttpImpl, ToolFile } from '../../../../shared/schemas.js';
import { createContainerRunner } from '../../../../electron/core/tool-types/container/runner.js';
import { BUSYBOX_IMAGE, dockerTestsEnabled, ensureBusyboxImage, ensureShellImage, runContext } from '../../../helpers/docker.js';
import { freshTransferStores } from '../../../helpers/transfer.js';

const fresh = freshTransferStores(afterAll);

const SKILL = `---
name: shells
description: Scripts and programs as A3S runs them
tools:
  - name: fetch-page
    backend:
      type: http
      url: https://pages.example/get
    parameters: { type: object, properties: { id: { type: string } } }
  - name: bash-only
    description: Uses what only bash has
    backend:
      type: script
      interpreter: bash
      script: |
        words=(\${TOOL_ARG_TEXT})
        if [[ \${#words[@]} -gt 1 ]]; then echo "many:\${#words[@]}:\${BASH_VERSION%%.*}"; else echo "one"; fi
    parameters: { type: object, properties: { text: { type: string } }, required: [text] }
  - name: zsh-tool
    backend:
      type: script
      interpreter: /bin/zsh
      script: |
        typeset -A seen; seen[a]=1; echo "zsh:\${ZSH_VERSION%%.*}:\${(k)seen}:\${TOOL_ARG_NAME:u}"
    parameters: { type: object, properties: { name: { type: string } } }
  - name: echo-tool
    backend:
      type: binary
      path: /bin/echo
      args_template: "said \${message}"
    parameters: { type: object, properties: { message: { type: string } }, required: [message] }
  - name: local-program
    backend:
      type: binary
      path: ./bin/convert-it
    parameters: { type: object, properties: {} }
---
`;

type Fresh = Awaited<ReturnType<typeof fresh>>;

function toolsOf(t: Fresh, bundleID: string): Map<string, { file: ToolFile; dir: string }> {
  return new Map(
    t.store.state.toolIDsOf(bundleID).map((id) => {
      const rec = t.store.state.tools.get(id)!;
      return [rec.file.slug, rec];
    }),
  );
}

describe('A3S skills keep what the seed does', () => {
  it('keep the seed default timeouts: script 60 s, http 30 s', async () => {
    const t = await fresh();
    const report = await t.transfer.importSkillMd(SKILL);
    const tools = toolsOf(t, report.created[0]!.bundleID);
    expect((tools.get('fetch-page')!.file.impl as HttpImpl).timeoutMs).toBe(30_000);
    expect((tools.get('bash-only')!.file.impl as ContainerImpl).timeoutSeconds).toBe(60);
  });

  it('accept zsh and binary backends in an image that has them; a program from the host is refused with the reason', async () => {
    const t = await fresh();
    const report = await t.transfer.importSkillMd(SKILL);
    const tools = toolsOf(t, report.created[0]!.bundleID);
    expect([...tools.keys()].sort()).toEqual(['bash-only', 'echo-tool', 'fetch-page', 'zsh-tool']);
    const dockerfile = await readFile(join(tools.get('zsh-tool')!.dir, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/apt-get install[^\n]* zsh/);
    expect(report.items?.find((i) => i.origin.includes('local-program'))).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/\.\/bin\/convert-it.*host/),
    });
  });
});

describe.runIf(await dockerTestsEnabled())('A3S scripts and programs in a real container', () => {
  it('run bash scripts under bash, zsh scripts under zsh, and binaries with their arguments', async () => {
    const docker = new Dockerode();
    await ensureBusyboxImage(docker);
    const images = { sh: BUSYBOX_IMAGE, bash: await ensureShellImage(docker, 'bash'), zsh: await ensureShellImage(docker, 'zsh'), binary: BUSYBOX_IMAGE };
    const t = await fresh({ transfer: { scriptImages: images } });
    const report = await t.transfer.importSkillMd(SKILL);
    const tools = toolsOf(t, report.created[0]!.bundleID);
    const runner = createContainerRunner({});
    const run = async (slug: string, args: Record<string, unknown>) => {
      const rec = tools.get(slug)!;
      return JSON.stringify((await runner.run(runContext(rec.file, args, { toolDir: rec.dir }))).value);
    };
    try {
      expect(await run('bash-only', { text: 'a b c' })).toContain('many:3:5');
      expect(await run('zsh-tool', { name: 'ada' })).toContain('zsh:5:a:ADA');
      expect(await run('echo-tool', { message: "it's $(id)" })).toContain("said it's $(id)");
    } finally {
      await runner.close();
    }
  }, 300_000);
});
