/** `container` tools: a sandboxed, short-lived Docker container per call. */
import { ContainerImpl } from '../../../../shared/tool-types/container.js';
import type { ToolFile } from '../../../../shared/schemas.js';
import type { SecretsReader } from '../../secrets/types.js';
import { createContainerRunner } from './runner.js';
import type { ToolTypeModule } from '../tool-type.js';
import { defaultSafetyOf } from '../../../../shared/tool-types/default-safety.js';
import { openContainerService, type ContainerTypeService } from './config-service.js';
import { missingSettingReason, requiredSecretNames } from './settings.js';

export const containerType: ToolTypeModule<'container', ContainerTypeService> = {
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
  // A secret behind a setting the settings schema leaves optional (a Chalie key with required: false) is not needed to run.
  secretNames: (impl) => requiredSecretNames(impl),
  openService: openContainerService,
  buildFiles: { buildsFromFolder: (impl) => impl.build === '.' },
  importWarnings(file, files) {
    if (file.impl.build !== '.' || files.some((f) => f.rel === 'Dockerfile')) return [];
    return [
      `${file.slug} ${file.version} builds its image from its folder, but the archive holds no Dockerfile for it; it stays unavailable until one is added`,
    ];
  },
  createRunner: ({ secrets, container, availabilityChanged }) =>
    createContainerRunner({
      // Secrets a container tool names (impl.secrets) reach it in `settings`, never in its image or args.
      settings: (tool: ToolFile) => containerSettings(tool.impl as ContainerImpl, secrets),
      missingSetting: (tool: ToolFile) => missingSettingReason(tool.impl as ContainerImpl),
      ...(availabilityChanged ? { onDockerStatusChange: () => availabilityChanged() } : {}),
      ...container,
    }),
};

/** Settings that name a secret (`{"secret": NAME}`), by setting name. */
function secretSettings(impl: ContainerImpl): Record<string, string> {
  return Object.fromEntries(Object.entries(impl.settings ?? {}).flatMap(([name, value]) => (value && typeof value === 'object' ? [[name, value.secret]] : [])));
}

/**
 * What the container receives as `settings`: plain settings, settings that name a secret with
 * that secret's value (left out while it is not set), then each of impl.secrets under its own
 * name (a secret of the same name as a plain setting wins).
 */
export function containerSettings(impl: ContainerImpl, secrets: SecretsReader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(impl.settings ?? {})) {
    if (value && typeof value === 'object') {
      if (secrets.has(value.secret)) out[name] = secrets.get(value.secret);
    } else out[name] = value;
  }
  const referenced = new Set(Object.values(secretSettings(impl)));
  for (const name of impl.secrets ?? []) if (!referenced.has(name) && secrets.has(name)) out[name] = secrets.get(name);
  return out;
}
