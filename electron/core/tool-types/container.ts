/** `container` tools: a sandboxed, short-lived Docker container per call. */
import { ContainerImpl } from '../../../shared/tool-types/container.js';
import type { ToolFile } from '../../../shared/schemas.js';
import { createContainerRunner } from '../invoke/container/runner.js';
import type { ToolTypeModule } from './tool-type.js';
import { defaultSafetyOf } from '../../../shared/tool-types/default-safety.js';

export const containerType: ToolTypeModule<'container'> = {
  type: 'container',
  implSchema: ContainerImpl,
  defaultSafety: (impl) => defaultSafetyOf('container', impl),
  check(impl) {
    if ((impl.image !== undefined) === (impl.build !== undefined)) {
      return [
        { field: 'impl', message: 'a container tool needs exactly one of "image" (an existing image) or "build": "." (its own folder with a Dockerfile)' },
      ];
    }
    return [];
  },
  secretNames: (impl) => impl.secrets ?? [],
  createRunner: ({ secrets, container }) =>
    createContainerRunner({
      // Secrets a container tool names (impl.secrets) reach it in `settings`, never in its image or args.
      settings: (tool: ToolFile) => {
        const impl = tool.impl as ContainerImpl;
        const names = impl.secrets ?? [];
        // Plain settings first; a secret of the same name wins.
        return { ...(impl.settings ?? {}), ...Object.fromEntries(names.flatMap((n) => (secrets.has(n) ? [[n, secrets.get(n)!]] : []))) };
      },
      ...container,
    }),
};
