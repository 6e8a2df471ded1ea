/** The container type's slots (../slots.ts): the settings panel on a tool's page, loaded with its own chunk. */
import { lazy } from 'react';
import type { TypeSlots } from '../slots.js';

const ContainerSettingsNotice = lazy(() => import('./SettingsPanel.js').then((m) => ({ default: m.ContainerSettingsNotice })));

export const containerSlots: TypeSlots = {
  ToolNotice: ContainerSettingsNotice,
};
