import { describe, expect, it } from 'vitest';
import { curlOf, secretVariablesOf } from '../../renderer/src/features/tools/tester/curl.js';
import { shellArgs } from '../helpers/shell-words.js';

describe('copy as cURL', () => {
  it('quotes every part for a POSIX shell, so what the shell reads is exactly the request', () => {
    const request = {
      method: 'POST',
      url: 'https://api.example.com/v1/notes?q=a b&x=1',
      headers: { authorization: 'Bearer [redacted]', 'content-type': 'application/json', 'x-note': "it's $(id) `x`" },
      body: '{"title": "O\'Brien $HOME"}',
    };
    const command = curlOf(request);
    expect(command.startsWith('curl -X POST ')).toBe(true);
    // printf each argument the shell sees (instead of running curl): the quoting must round-trip.
    const args = shellArgs(command);
    expect(args).toEqual([
      '-X',
      'POST',
      '-H',
      'authorization: Bearer [redacted]',
      '-H',
      'content-type: application/json',
      '-H',
      "x-note: it's $(id) `x`",
      '--data-raw',
      '{"title": "O\'Brien $HOME"}',
      'https://api.example.com/v1/notes?q=a b&x=1',
    ]);
    expect(curlOf({ method: 'GET', url: 'https://x.example/a', headers: {} })).toBe('curl https://x.example/a');
  });

  it('writes secrets as shell variables when asked, so the shell fills them in and no value is copied', () => {
    const request = {
      method: 'POST',
      url: 'https://api.example.com/v1?key=[redacted]&q=it%27s',
      headers: { authorization: 'Bearer [redacted]', 'x-plain': "it's" },
      body: '{"key": "[redacted]", "b": "[redacted]"}',
      secretParts: {
        url: ['https://api.example.com/v1?key=', { secret: 'API_KEY' }, '&q=it%27s'],
        headers: { authorization: ['Bearer ', { secret: 'API_KEY' }] },
        body: ['{"key": "', { secret: 'API_KEY' }, '", "b": "', { secret: 'B_KEY' }, '"}'],
      },
    };
    const command = curlOf(request, { secretsAsVariables: true });
    expect(command).not.toContain('[redacted]');
    expect(secretVariablesOf(request)).toEqual(['API_KEY', 'B_KEY']);
    // Values with quotes, spaces and $ are taken as they are from the variables.
    const env = { ...process.env, API_KEY: `k'e y$1"`, B_KEY: 'b`b' };
    const args = shellArgs(command, env);
    expect(args).toEqual([
      '-X',
      'POST',
      '-H',
      `authorization: Bearer k'e y$1"`,
      '-H',
      "x-plain: it's",
      '--data-raw',
      `{"key": "k'e y$1"", "b": "b\`b"}`,
      `https://api.example.com/v1?key=k'e y$1"&q=it%27s`,
    ]);
    // Not asked, or no parts: masked as before.
    expect(curlOf(request)).toContain('Bearer [redacted]');
    expect(curlOf({ method: 'GET', url: 'https://x.example/a', headers: {} }, { secretsAsVariables: true })).toBe('curl https://x.example/a');
  });
});
