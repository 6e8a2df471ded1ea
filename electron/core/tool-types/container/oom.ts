/** Whether a container's end was the kernel's OOM killer, and how its memory limit reads in a message. */
import type Dockerode from 'dockerode';
import type { ContainerImpl } from '../../../../shared/schemas.js';
import { delay } from '../../util/abort.js';

/**
 * Whether the kernel's OOM killer struck. The engine learns of it by an event that can trail
 * the exit by a few milliseconds (more under load), so a SIGKILL exit (137) is asked about a few times.
 */
export async function oomKilled(docker: Dockerode, container: Dockerode.Container, exitCode: number): Promise<boolean> {
  // Backing off to about a second: the flag trails the exit a little.
  const waits = exitCode === 137 ? [0, 40, 80, 160, 320, 400] : [0];
  for (const wait of waits) {
    if (wait > 0) await delay(wait);
    const state = await container.inspect().then(
      (info) => info.State,
      () => undefined,
    );
    if (state?.OOMKilled) return true;
  }
  // With cgroup v1, when the task's exit is handled before its OOM event, the state never says
  // so (moby's known race); the engine's event log still holds the "oom" event of the container.
  return exitCode === 137 && (await oomEvent(docker, container.id));
}

async function oomEvent(docker: Dockerode, id: string): Promise<boolean> {
  const since = Math.floor(Date.now() / 1000) - 3600;
  const until = Math.floor(Date.now() / 1000) + 1;
  try {
    const stream = (await docker.getEvents({ since, until, filters: { container: [id], event: ['oom'] } })) as NodeJS.ReadableStream;
    return await new Promise<boolean>((resolve) => {
      let text = '';
      const timer = setTimeout(() => {
        (stream as { destroy?: () => void }).destroy?.();
        resolve(text.includes('"oom"'));
      }, 3000);
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      stream.on('end', () => {
        clearTimeout(timer);
        resolve(text.includes('"oom"'));
      });
      stream.on('error', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  } catch {
    return false;
  }
}

export function describeMemory(impl: ContainerImpl): string {
  const memory = impl.sandbox?.memory;
  if (memory === undefined) return '256 MB';
  return typeof memory === 'number' ? `${memory} MB` : memory;
}
