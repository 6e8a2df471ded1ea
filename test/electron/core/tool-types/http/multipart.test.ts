/** multipart/form-data bodies: parts as a real parser reads them, hostile names kept inside their quotes. */
import { describe, expect, it } from 'vitest';
import { buildMultipart } from '../../../../../electron/core/tool-types/http/multipart.js';

async function parse(body: ReturnType<typeof buildMultipart>) {
  return new Response(new Uint8Array(body.bytes), { headers: { 'content-type': body.contentType } }).formData();
}

describe('multipart bodies', () => {
  it('cannot be broken out of by a field name or a value', async () => {
    const evil = 'x"; filename="pwn.sh\r\nContent-Type: text/x-sh';
    const body = buildMultipart([
      { name: evil, part: { value: 'v' } },
      { name: 'note', part: { value: `--${'-'.repeat(4)}toolwright-fake--\r\ninjected` } },
    ]);
    const form = await parse(body);
    expect([...form.keys()]).toHaveLength(2);
    expect(form.get('note')).toBe('------toolwright-fake--\r\ninjected');
    expect(typeof [...form.values()][0]).toBe('string'); // no file part was smuggled in
  });

  it('sends objects as JSON parts, leaves out absent values and shows files by size', async () => {
    const body = buildMultipart([
      { name: 'meta', part: { value: { a: [1] }, argName: 'meta', schema: { type: 'object' } } },
      { name: 'gone', part: { value: undefined, argName: 'gone', schema: { type: 'string' } } },
      { name: 'doc', part: { value: 'aGk=', argName: 'doc', schema: { type: 'string', contentEncoding: 'base64', contentMediaType: 'text/plain' } } },
    ]);
    const form = await parse(body);
    expect(form.get('meta')).toBe('{"a":[1]}');
    expect(form.has('gone')).toBe(false);
    const file = form.get('doc') as File;
    expect(file.type).toBe('text/plain');
    expect(await file.text()).toBe('hi');
    expect(body.text).toContain('[2 bytes]');
    expect(body.text).not.toContain('aGk=');
  });
});
