import { describe, expect, it } from 'vitest';
import { hostConfig, memoryBytes, timeoutMs } from '../../../../../electron/core/tool-types/container/sandbox.js';

const MB = 1024 * 1024;

describe('memoryBytes', () => {
  it.each([
    [undefined, 256 * MB],
    [64, 64 * MB],
    ['512m', 512 * MB],
    ['512MB', 512 * MB],
    ['1g', 1024 * MB],
    ['1.5G', 1536 * MB],
    ['8192k', 8 * MB],
    ['300', 300 * MB],
  ])('reads %j', (input, bytes) => {
    expect(memoryBytes(input)).toBe(bytes);
  });

  it.each(['lots', '5m', '1t', '-5m', '100g'])('refuses %j as INVALID_INPUT on impl.sandbox.memory', (input) => {
    expect(() => memoryBytes(input)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', details: { issues: [expect.objectContaining({ field: 'impl.sandbox.memory' })] } }),
    );
  });
});

describe('hostConfig', () => {
  it('is strict by default', () => {
    expect(hostConfig(undefined)).toMatchObject({
      Memory: 256 * MB,
      MemorySwap: 256 * MB,
      PidsLimit: 64,
      NanoCpus: 1e9,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Privileged: false,
      ReadonlyRootfs: true,
      NetworkMode: 'none',
      Tmpfs: { '/tmp': expect.stringContaining('noexec') },
      AutoRemove: false,
    });
  });

  it('gives what a tool asks for, and no more than the engine has', () => {
    const config = hostConfig({ memory: '1g', network: 'bridge', writable: true, cpus: 8 }, { engineCpus: 2 });
    expect(config).toMatchObject({ Memory: 1024 * MB, MemorySwap: 1024 * MB, NetworkMode: 'bridge', ReadonlyRootfs: false, NanoCpus: 2e9 });
    expect(config.Tmpfs?.['/tmp']).not.toContain('noexec');
    expect(hostConfig({ cpus: 0.5 }).NanoCpus).toBe(5e8);
  });

  it('refuses a network other than none or bridge (e.g. host)', () => {
    expect(() => hostConfig({ network: 'host' as 'bridge' })).toThrow(/network must be "none" or "bridge"/);
  });
});

describe('timeoutMs', () => {
  it('defaults to 9 s and follows impl.timeoutSeconds', () => {
    expect(timeoutMs({ image: 'x' })).toBe(9000);
    expect(timeoutMs({ image: 'x', timeoutSeconds: 0.5 })).toBe(500);
  });
});
