import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { curlOf } from '../../renderer/src/tester/curl.js';

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
    const args = execFileSync('sh', ['-c', `set -- ${command.slice('curl '.length)}; for a in "$@"; do printf '%s\\n' "$a"; done`])
      .toString()
      .trimEnd()
      .split('\n');
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
});
