import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../../electron/core/errors.js';
import { CARD_HTML_MIN_BYTES } from '../../../../electron/core/invoke/post-process.js';
import { bundleFile, engineTool, harness, toolFile, type Harness } from '../../../helpers/engine-fixtures.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

describe('output validation', () => {
  it('a value that does not match outputSchema is ok:false INVALID_OUTPUT, with the value shown', async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: { temp: 'warm' } });
    const file = toolFile({ outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp', 'unit'] } });
    const r = await h.engine.invoke(engineTool(file), bundleFile(), { args: { city: 'Oslo' } });
    expect(r.ok).toBe(false);
    expect(r.error?.code).toBe('INVALID_OUTPUT');
    expect(r.error?.message).toContain("'temp' must be a number (got a string)");
    expect(r.error?.message).toContain("missing required property 'unit'");
    expect(r.error?.message).toContain('fix the tool or its outputSchema');
    expect(r.value).toEqual({ temp: 'warm' });
    expect(h.metrics.calls[0]!.ok).toBe(false);
  });

  it('a value that matches is ok', async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: { temp: 12.5 } });
    const file = toolFile({ outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] } });
    const r = await h.engine.invoke(engineTool(file), bundleFile(), { args: { city: 'Oslo' } });
    expect(r).toMatchObject({ ok: true, value: { temp: 12.5 } });
  });

  it('a value that is not JSON is INVALID_OUTPUT', async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: { n: 10n } });
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(r.error?.code).toBe('INVALID_OUTPUT');
    expect(r.error?.message).toContain('not JSON');
  });

  it('the value is made plain JSON (a Date becomes its ISO text, undefined becomes null)', async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: { at: new Date('2026-01-02T03:04:05.000Z'), gone: undefined } });
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(r.value).toEqual({ at: '2026-01-02T03:04:05.000Z' });
    h.runner.behaviour = () => ({ value: undefined });
    expect((await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } })).value).toBeNull();
  });
});

describe('output caps', () => {
  it('truncates a long string at maxOutputBytes, suffix included, stating the original size', async () => {
    h = await harness();
    const long = 'é€😀x'.repeat(5000); // 2+3+4+1 bytes per repeat, no cut may split one
    h.runner.behaviour = () => ({ value: long });
    const file = toolFile({ limits: { maxOutputBytes: 1000 } });
    const r = await h.engine.invoke(engineTool(file), bundleFile(), { args: { city: 'Oslo' } });
    const original = utf8(JSON.stringify(long));
    expect(r.ok).toBe(true);
    expect(r.truncated).toEqual({ originalBytes: original });
    const v = r.value as string;
    expect(v.endsWith(`… [truncated: original ${original} bytes]`)).toBe(true);
    expect(utf8(v)).toBeLessThanOrEqual(1000);
    expect(utf8(v)).toBeGreaterThan(990);
    expect(v).not.toContain('\uFFFD');
    expect(long.startsWith(v.slice(0, v.indexOf('… [truncated')))).toBe(true);
  });

  it('truncates a large object as the start of its JSON text; config.limits is the fallback', async () => {
    h = await harness({ config: { limits: { maxCallsPerMinute: 60, maxOutputBytes: 200 } } });
    const rows = Array.from({ length: 100 }, (_, i) => ({ i, name: `row ${i}` }));
    h.runner.behaviour = () => ({ value: { rows } });
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(typeof r.value).toBe('string');
    expect((r.value as string).startsWith('{"rows":[{"i":0,"name":"row 0"}')).toBe(true);
    expect(utf8(r.value as string)).toBeLessThanOrEqual(200);
    expect(r.truncated?.originalBytes).toBe(utf8(JSON.stringify({ rows })));
  });

  it('leaves a value at the cap alone', async () => {
    h = await harness();
    const exact = 'a'.repeat(98); // 100 bytes as JSON
    h.runner.behaviour = () => ({ value: exact });
    const r = await h.engine.invoke(engineTool(toolFile({ limits: { maxOutputBytes: 100 } })), bundleFile(), { args: { city: 'x' } });
    expect(r.value).toBe(exact);
    expect(r.truncated).toBeUndefined();
  });

  it('caps card text at maxOutputBytes and card html at the larger card cap', async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: 1, card: { html: '<p>' + 'x'.repeat(CARD_HTML_MIN_BYTES * 2) + '</p>', text: 'y'.repeat(5000) } });
    const r = await h.engine.invoke(engineTool(toolFile({ limits: { maxOutputBytes: 1000 } })), bundleFile(), { args: { city: 'x' } });
    expect(utf8(r.card!.html!)).toBeLessThanOrEqual(CARD_HTML_MIN_BYTES);
    expect(r.card!.html!).toContain('[truncated: original');
    expect(utf8(r.card!.text!)).toBeLessThanOrEqual(1000);
  });

  it('caps error messages', async () => {
    h = await harness();
    h.runner.behaviour = () => {
      throw new CoreError('INTERNAL', 'stderr: ' + 'z'.repeat(100_000));
    };
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'x' } });
    expect(utf8(r.error!.message)).toBeLessThanOrEqual(4096);
    expect(r.error!.message).toContain('[truncated: original');
  });
});

describe('cards', () => {
  it('fills the card title from the arguments', async () => {
    h = await harness();
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Zürich' } });
    // The run gave no card body: the value stands in as text, so an http tool's card shows too.
    expect(r.card).toEqual({ title: 'Weather in Zürich', text: JSON.stringify(r.value, null, 2) });
  });

  it('a title given by the run wins; html and text are passed on', async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: 1, card: { title: 'Sunny', html: '<b>14°</b>', text: '14°' } });
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(r.card).toEqual({ title: 'Sunny', html: '<b>14°</b>', text: '14°' });
  });

  it("no card when the tool's card is switched off", async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: 1, card: { html: '<b>x</b>' } });
    const r = await h.engine.invoke(engineTool(toolFile({ card: { enabled: false, title: 'T {{city}}' } })), bundleFile(), { args: { city: 'Oslo' } });
    expect(r.card).toBeUndefined();
  });
});

describe('secrets never leave an invocation', () => {
  const SECRET = 'sk-live/9f8e d7"c6\\b5+a4';
  const secrets = { WEATHER_API_KEY: SECRET, SHORT: 'abc' };

  async function allOutputs(hh: Harness, toolID: string, result: unknown): Promise<string> {
    await hh.history.flush();
    const dir = join(hh.dir, 'history');
    const files = await readdir(dir);
    const disk = await Promise.all(files.filter((f) => f.endsWith('.jsonl')).map((f) => readFile(join(dir, f), 'utf8')));
    return JSON.stringify(result) + '\n' + JSON.stringify(await hh.history.list(toolID)) + '\n' + disk.join('\n');
  }

  function leaks(text: string): string[] {
    const forms = [SECRET, encodeURIComponent(SECRET), encodeURIComponent(SECRET).replace(/%20/g, '+'), JSON.stringify(SECRET).slice(1, -1)];
    return forms.filter((f) => text.includes(f) || text.includes(JSON.stringify(f).slice(1, -1)));
  }

  it('redacts the value, card, http exchange and history, in every wire form', async () => {
    h = await harness({ secrets });
    h.runner.behaviour = (ctx) => ({
      value: { echoed: `key=${SECRET}`, nested: [{ [SECRET]: 'as a key' }], asJsonText: JSON.stringify({ k: SECRET }) },
      card: { title: `for ${SECRET}`, html: `<i>${SECRET}</i>`, text: SECRET },
      http: {
        request: {
          method: 'GET',
          url: `https://api.example.com/w?key=${encodeURIComponent(SECRET)}&city=${encodeURIComponent(String(ctx.args['city']))}`,
          headers: { Authorization: 'Bearer oauth-token-not-a-stored-secret', 'X-Key': SECRET },
          body: `key=${encodeURIComponent(SECRET).replace(/%20/g, '+')}`,
        },
        response: { status: 200, headers: { 'set-cookie': 'session=abcdef' }, body: JSON.stringify({ echo: SECRET }) },
        attempts: 1,
      },
    });
    const tool = engineTool();
    const r = await h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' } });
    expect(r.ok).toBe(true);
    const everything = await allOutputs(h, tool.file.toolID, r);
    expect(leaks(everything)).toEqual([]);
    expect(everything).not.toContain('oauth-token-not-a-stored-secret');
    expect(everything).not.toContain('session=abcdef');
    expect((r.value as { echoed: string }).echoed).toBe('key=[redacted]');
    expect(r.http!.request.headers['Authorization']).toBe('Bearer [redacted]');
    expect(r.http!.request.url).toBe('https://api.example.com/w?key=[redacted]&city=Oslo');
    expect(r.card!.text).toBe('[redacted]');
  });

  it('redacts error messages and details, also of cancelled and failed runs', async () => {
    h = await harness({ secrets });
    h.runner.behaviour = () => {
      throw new CoreError('UPSTREAM_ERROR', `401 for key ${SECRET}`, { url: `https://x/?k=${encodeURIComponent(SECRET)}` });
    };
    const tool = engineTool();
    const r = await h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' } });
    expect(r.error?.message).toBe('401 for key [redacted]');
    h.runner.behaviour = () => {
      throw new Error(`plain error with ${SECRET}`);
    };
    const r2 = await h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' } });
    expect(r2.error?.message).toBe('the tool failed: plain error with [redacted]');
    expect(leaks(await allOutputs(h, tool.file.toolID, [r, r2]))).toEqual([]);
  });

  it('redacts output-schema errors that quote the value', async () => {
    h = await harness({ secrets });
    h.runner.behaviour = () => ({ value: { [SECRET]: 1 } });
    const tool = engineTool(toolFile({ outputSchema: { type: 'object', additionalProperties: false } }));
    const r = await h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' } });
    expect(r.error?.code).toBe('INVALID_OUTPUT');
    expect(r.error?.message).toContain("unexpected property '[redacted]'");
    expect(leaks(await allOutputs(h, tool.file.toolID, r))).toEqual([]);
  });

  it('history keeps the arguments with secrets, secret-named and sensitive properties masked', async () => {
    h = await harness({ secrets });
    const file = toolFile({
      argSchema: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          WEATHER_API_KEY: { type: 'string' },
          password: { type: 'string', format: 'password' },
          token: { type: 'string', writeOnly: true },
          nested: { type: 'object', properties: { pin: { type: 'string', 'x-secret': true } } },
          note: { type: 'string' },
        },
      },
    });
    const tool = engineTool(file);
    const args = {
      city: 'Oslo',
      WEATHER_API_KEY: 'caller-supplied-key',
      password: 'hunter22',
      token: 'tok-123456',
      nested: { pin: '9999' },
      note: `see ${SECRET}`,
    };
    const r = await h.engine.invoke(tool, bundleFile(), { args });
    expect(r.ok).toBe(true);
    // The runner got the real arguments.
    expect(h.runner.calls[0]!.args).toEqual(args);
    const [entry] = await h.history.list(file.toolID);
    expect(entry!.args).toEqual({
      city: 'Oslo',
      WEATHER_API_KEY: '[redacted]',
      password: '[redacted]',
      token: '[redacted]',
      nested: { pin: '[redacted]' },
      note: 'see [redacted]',
    });
  });

  it('leaves values shorter than 4 characters alone', async () => {
    h = await harness({ secrets });
    h.runner.behaviour = () => ({ value: 'abcdef' });
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'abc' } });
    expect(r.value).toBe('abcdef');
    expect(r.card?.title).toBe('Weather in abc');
  });

  it('redacts before truncating, so no part of a secret survives a cut', async () => {
    h = await harness({ secrets });
    const padding = 'p'.repeat(40); // the cut (about 64 bytes in) would fall inside the secret
    h.runner.behaviour = () => ({ value: padding + SECRET + 'q'.repeat(1000) });
    const r = await h.engine.invoke(engineTool(toolFile({ limits: { maxOutputBytes: 100 } })), bundleFile(), { args: { city: 'x' } });
    const v = r.value as string;
    expect(v).not.toContain(SECRET.slice(0, 6));
    expect(v.startsWith(padding + '[redacted]qqq')).toBe(true);
    expect(r.truncated).toBeDefined();
  });

  it('picks up a secret set after the engine started', async () => {
    h = await harness();
    h.runner.behaviour = () => ({ value: 'the new-secret-value' });
    const tool = engineTool();
    expect((await h.engine.invoke(tool, bundleFile(), { args: { city: 'x' } })).value).toBe('the new-secret-value');
    h.secrets.map['NEW'] = 'new-secret-value';
    expect((await h.engine.invoke(tool, bundleFile(), { args: { city: 'x' } })).value).toBe('the [redacted]');
  });
});
