/** Creating a run's container: the tool's impl checked, the sandbox's host config, the labels sweepOrphans reads. */
import type Dockerode from 'dockerode';
import type { ContainerImpl, ToolFile } from '../../../../shared/schemas.js';
import { invalid } from '../../errors.js';
import type { RunContext } from '../../invoke/types.js';
import type { ResolvedImage } from './images.js';
import { LABEL_DEADLINE, LABEL_INVOCATION, LABEL_MANAGED, LABEL_OWNER, LABEL_TOOL } from './labels.js';
import { ownerLabel } from './orphans.js';
import { FALLBACK_USER } from './sandbox.js';

/** A container that outlives its timeout by this much is fair game for sweepOrphans. */
const DEADLINE_GRACE_MS = 60_000;

export function containerImpl(tool: ToolFile): ContainerImpl {
  const impl = (tool.impl ?? {}) as ContainerImpl;
  if (impl.image && impl.build) {
    throw invalid([{ field: 'impl', message: 'set either impl.image or impl.build, not both' }]);
  }
  if (!impl.image && impl.build !== '.') {
    throw invalid([{ field: 'impl', message: 'a container tool needs impl.image (an image name) or impl.build: "." (its folder holds a Dockerfile)' }]);
  }
  return impl;
}

export interface ContainerSpec {
  image: ResolvedImage;
  ctx: RunContext;
  /** The encoded payload, the container's single CMD argument. */
  payload: string;
  config: Dockerode.HostConfig;
  limitMs: number;
}

export function createContainer(docker: Dockerode, { image, ctx, payload, config, limitMs }: ContainerSpec): Promise<Dockerode.Container> {
  return docker.createContainer({
    Image: image.ref,
    Cmd: [payload],
    ...(image.user ? {} : { User: FALLBACK_USER }),
    ...managedContainerOptions({ toolID: ctx.tool.toolID, invocationID: ctx.invocationID, limitMs, config }),
  });
}

/**
 * What every container the runner starts shares, a tool's run or a one-off command: the labels
 * sweepOrphans reads (a deadline past the run's own limit), output attached without a TTY or
 * stdin, the sandbox's host config and no network interface unless it grants one.
 */
export function managedContainerOptions(run: {
  toolID: string;
  invocationID: string;
  limitMs: number;
  config: Dockerode.HostConfig;
}): Dockerode.ContainerCreateOptions {
  return {
    Labels: {
      [LABEL_MANAGED]: 'true',
      [LABEL_TOOL]: run.toolID,
      [LABEL_INVOCATION]: run.invocationID,
      [LABEL_OWNER]: ownerLabel(),
      [LABEL_DEADLINE]: String(Date.now() + run.limitMs + DEADLINE_GRACE_MS),
    },
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: false,
    Tty: false,
    NetworkDisabled: run.config.NetworkMode === 'none',
    HostConfig: run.config,
  };
}
