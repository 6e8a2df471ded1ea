/**
 * A3S Box skill files as their authors write them (a document of our own in A3S's shape):
 * `backend: {type: …}`, `parameters` as a JSON Schema, `body_template`, script backends with
 * `interpreter` (+ `interpreter_args`) reading TOOL_ARGS / TOOL_ARG_<NAME>, binary backends in a container.
 */
import { afterAll, describe, expect, it } from 'vitest';
import Dockerode from 'dockerode';
import type { ContainerImpl, HttpImpl } from '../../../../shared/schemas.js';
import { createContainerRunner } from '../../../../electron/core/tool-types/container/runner.js';
import { BUSYBOX_IMAGE, dockerTestsEnabled, ensureBusyboxImage, ensureShellImage, runContext } from '../../../helpers/docker.js';
import { freshTransferStores } from '../../../helpers/transfer.js';

const fresh = freshTransferStores(afterAll);

const SKILL = `---
name: field-kit
description: Tools in every backend A3S knows
version: 2.0.0
tools:
  - name: echo-tool
    description: Echo through a host binary
    backend:
      type: binary
      path: /bin/echo
      args_template: "\${message}"
    parameters:
      type: object
      properties:
        message: { type: string }
      required: [message]
  - name: weather-api
    description: Weather for a city
    backend:
      type: http
      url: https://api.weather.example/v2/now
      method: GET
      headers:
        Authorization: "Bearer \${env:WEATHER_API_KEY}"
    parameters:
      type: object
      properties:
        city: { type: string, description: City name }
        country: { type: string, description: Country code (optional) }
      required: [city]
  - name: create-note
    description: Post a note
    backend:
      type: http
      url: https://notes.example/api/notes
      method: POST
      body_template: '{"title": "\${title}", "tags": \${tags}}'
    parameters:
      type: object
      properties:
        title: { type: string }
        tags: { type: array, items: { type: string } }
      required: [title]
  - name: shout
    description: Upper-cases text with a script
    backend:
      type: script
      interpreter: bash
      script: |
        #!/bin/bash
        printf '%s|%s|%s' "\${TOOL_ARG_TEXT}" "\${TOOL_ARG_TIMES:-1}" "\${TOOL_ARGS}"
    parameters:
      type: object
      properties:
        text: { type: string }
        times: { type: integer }
      required: [text]
  - name: unbuffered
    backend:
      type: script
      interpreter: /usr/bin/python3
      interpreter_args: ["-u"]
      script: print("hi")
    parameters: { type: object, properties: {} }
---
# Field kit
`;

describe('A3S skill files', () => {
  it('import every http, script and binary tool with its parameters', async () => {
    const t = await fresh();
    const report = await t.transfer.importSkillMd(SKILL);
    expect(report.toolCount).toBe(5);
    const bundleID = report.created[0]!.bundleID;
    const tools = new Map(t.store.state.toolIDsOf(bundleID).map((id) => [t.store.state.tools.get(id)!.file.slug, t.store.state.tools.get(id)!.file]));
    const weather = tools.get('weather-api')!;
    expect(weather.argSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, country: { type: 'string', description: 'Country code (optional)' } },
      required: ['city'],
    });
    // Parameters the URL does not mention go in the query; the optional one only when given (runner rule).
    expect((weather.impl as HttpImpl).urlTemplate).toBe('https://api.weather.example/v2/now?city=${city}&country=${country}');
    expect((weather.impl as HttpImpl).headers).toEqual({ Authorization: 'Bearer ${WEATHER_API_KEY}' });
    const note = tools.get('create-note')!;
    expect((note.impl as HttpImpl).bodyTemplate).toBe('{"title": "${title}", "tags": ${tags}}');
    const shout = tools.get('shout')!;
    expect(shout.type).toBe('container');
    expect((shout.impl as ContainerImpl).build).toBe('.');
    expect(shout.argSchema).toMatchObject({ required: ['text'], properties: { times: { type: 'integer' } } });
    expect(tools.get('unbuffered')).toBeDefined();
  });

  it('refuses interpreter arguments that are not plain flags', async () => {
    const t = await fresh();
    const bad = SKILL.replace('interpreter_args: ["-u"]', 'interpreter_args: ["-u; rm -rf /"]');
    const report = await t.transfer.importSkillMd(bad);
    expect(report.warnings?.join('\n')).toMatch(/unbuffered.*not a plain interpreter flag/);
  });
});

describe.runIf(await dockerTestsEnabled())('A3S script tools in a real container', () => {
  it('read their arguments from TOOL_ARG_<NAME> and TOOL_ARGS', async () => {
    const docker = new Dockerode();
    await ensureBusyboxImage(docker);
    const t = await fresh({ transfer: { scriptImages: { sh: BUSYBOX_IMAGE, bash: await ensureShellImage(docker, 'bash') } } });
    const report = await t.transfer.importSkillMd(SKILL);
    const bundleID = report.created[0]!.bundleID;
    const rec = t.store.state
      .toolIDsOf(bundleID)
      .map((id) => t.store.state.tools.get(id)!)
      .find((r) => r.file.slug === 'shout')!;
    const runner = createContainerRunner({});
    try {
      const out = await runner.run(runContext(rec.file, { text: "it's $(id)", times: 2 }, { toolDir: rec.dir }));
      const text = JSON.stringify(out);
      expect(text).toContain("it's $(id)|2|");
      expect(text).toContain('\\"times\\":2');
    } finally {
      await runner.close();
    }
  }, 180_000);
});
