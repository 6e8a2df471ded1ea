import { describe, expect, it } from 'vitest';
import { CoreError } from '../../../../../electron/core/errors.js';
import { CappedSink, LineSplitter, MAX_LINE_CHARS, parseReply, replyToOutput, stderrTail } from '../../../../../electron/core/tool-types/container/output.js';

function parseError(stdout: string | Buffer): CoreError {
  try {
    parseReply(Buffer.isBuffer(stdout) ? stdout : Buffer.from(stdout));
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return error as CoreError;
  }
  throw new Error('expected parseReply to refuse the output');
}

describe('parseReply', () => {
  it('accepts one object, surrounded by whitespace, and keeps extra keys for the output schema', () => {
    expect(parseReply(Buffer.from('\n  {"text":"hi","title":"T","data":{"n":1}}\n\n'))).toEqual({ text: 'hi', title: 'T', data: { n: 1 } });
  });

  it.each([
    ['', /printed nothing/],
    ['   \n', /printed nothing/],
    ['not json', /stdout is not JSON.*starts with: not json/],
    ['{"a":1}{"b":2}', /more than one JSON value \(extra output from byte 7: \{"b":2\}\)/],
    ['[1,2]', /an array, not an object/],
    ['"text"', /a string, not an object/],
    ['null', /a null, not an object/],
    ['42', /a number, not an object/],
    ['{"text":5}', /"text" is number, it must be a string/],
    ['{"html":["<b>"]}', /"html" is object, it must be a string/],
    ['{"text":"unterminated', /stdout is not JSON/],
  ])('refuses %j with a message that says what is wrong', (stdout, message) => {
    const error = parseError(stdout);
    expect(error.code).toBe('INVALID_OUTPUT');
    expect(error.details?.kind).toBe('bad-output');
    expect(error.message).toMatch(message);
    expect(error.message).toContain('one JSON object {"text"?, "html"?, "title"?, "error"?} on the last line of stdout');
  });

  it('takes the last stdout line that is a JSON object; lines before it are progress', () => {
    expect(parseReply(Buffer.from('{"a":1}\n{"b":2}\n'))).toEqual({ b: 2 });
    expect(parseReply(Buffer.from('working…\n50%\n{"text":"done"}\n'))).toEqual({ text: 'done' });
    expect(parseReply(Buffer.from('{"text":"answer"}\nbye\n[1]\n'))).toEqual({ text: 'answer' });
    // One object pretty-printed over several lines is still one answer.
    expect(parseReply(Buffer.from('{\n  "text": "pretty"\n}\n'))).toEqual({ text: 'pretty' });
    expect(() => parseReply(Buffer.from('progress\n{"text":7}\n'))).toThrow(/"text" is number/);
  });

  it('keeps terminal escapes and control characters out of its messages, and clips long snippets', () => {
    const error = parseError(`\u001b[31mred\u001b[0m\u0007 ${'x'.repeat(5000)}`);
    expect(error.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(error.message.length).toBeLessThan(600);
  });
});

describe('replyToOutput', () => {
  it('gives the reply as value and the text fields as card', () => {
    expect(replyToOutput({ title: 'T', html: '<b>x</b>', text: 'x', extra: 1 })).toEqual({
      value: { title: 'T', html: '<b>x</b>', text: 'x', extra: 1 },
      card: { title: 'T', html: '<b>x</b>', text: 'x' },
    });
  });

  it('turns error into a CoreError with the tool message; an empty error is no error', () => {
    expect(() => replyToOutput({ error: 'quota exceeded' })).toThrow(expect.objectContaining({ code: 'UPSTREAM_ERROR', message: 'quota exceeded' }));
    expect(() => replyToOutput({ error: { reason: 'nested' } })).toThrow('{"reason":"nested"}');
    expect(replyToOutput({ error: '', text: 'fine' }).value).toEqual({ error: '', text: 'fine' });
  });
});

describe('CappedSink', () => {
  it('keeps the first cap bytes and reports the overflow once', async () => {
    let overflows = 0;
    const sink = new CappedSink(10, () => overflows++);
    sink.write(Buffer.from('123456'));
    sink.write(Buffer.from('7890'));
    expect(overflows).toBe(0);
    sink.write(Buffer.from('abc'));
    sink.write(Buffer.from('def'));
    await new Promise<void>((resolve) => sink.end(resolve));
    expect(overflows).toBe(1);
    expect(sink.overflowed).toBe(true);
    expect(sink.bytes().toString()).toBe('1234567890');
  });
});

describe('LineSplitter', () => {
  it('gives whole lines, never half a UTF-8 character, and the rest at the end', () => {
    const lines: string[] = [];
    const split = new LineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('première ligne\r\nzwei €\nend');
    for (let i = 0; i < bytes.length; i++) split.write(bytes.subarray(i, i + 1));
    split.end();
    expect(lines).toEqual(['première ligne\r\n', 'zwei €\n', 'end']);
  });

  it('lets a very long line out in pieces instead of holding it', () => {
    const lines: string[] = [];
    const split = new LineSplitter((l) => lines.push(l));
    split.write(Buffer.from('x'.repeat(MAX_LINE_CHARS + 10)));
    expect(lines).toHaveLength(1);
    split.write(Buffer.from('y\n'));
    split.end();
    expect(lines.join('')).toBe('x'.repeat(MAX_LINE_CHARS + 10) + 'y\n');
  });
});

describe('stderrTail', () => {
  it('keeps the end of long stderr, without escapes', () => {
    const tail = stderrTail(Buffer.from(`${'early noise\n'.repeat(1000)}\u001b[1mfatal\u001b[0m: disk on fire`));
    expect(tail.endsWith('fatal: disk on fire')).toBe(true);
    expect(tail.startsWith('…')).toBe(true);
    expect(tail.length).toBeLessThanOrEqual(2001);
  });
});
