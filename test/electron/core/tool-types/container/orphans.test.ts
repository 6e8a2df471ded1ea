import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { LABEL_DEADLINE, LABEL_OWNER } from '../../../../../electron/core/tool-types/container/labels.js';
import { isAbandoned } from '../../../../../electron/core/tool-types/container/orphans.js';

const now = Date.now();
const future = String(now + 60_000);
const past = String(now - 1);

async function deadPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('exit', () => resolve(child.pid!));
  });
}

describe('isAbandoned', () => {
  it('sweeps what is past its deadline, whoever owns it', () => {
    expect(isAbandoned({ [LABEL_OWNER]: `${os.hostname()}/${process.pid}`, [LABEL_DEADLINE]: past }, now)).toBe(true);
    expect(isAbandoned({ [LABEL_OWNER]: 'other-host/1', [LABEL_DEADLINE]: past }, now)).toBe(true);
  });

  it('sweeps containers of a process on this host that is gone', async () => {
    expect(isAbandoned({ [LABEL_OWNER]: `${os.hostname()}/${await deadPid()}`, [LABEL_DEADLINE]: future }, now)).toBe(true);
  });

  it('keeps containers of live processes, and of other hosts before their deadline', () => {
    expect(isAbandoned({ [LABEL_OWNER]: `${os.hostname()}/${process.pid}`, [LABEL_DEADLINE]: future }, now)).toBe(false);
    expect(isAbandoned({ [LABEL_OWNER]: `${os.hostname()}/1`, [LABEL_DEADLINE]: future }, now)).toBe(false);
    expect(isAbandoned({ [LABEL_OWNER]: 'other-host/99999', [LABEL_DEADLINE]: future }, now)).toBe(false);
  });

  it('sweeps a managed container with neither owner nor deadline (nothing can claim it)', () => {
    expect(isAbandoned({}, now)).toBe(true);
  });
});
