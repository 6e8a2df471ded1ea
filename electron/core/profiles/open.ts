/** The profiles' part of the composition root (app-core.ts): their files, tokens and service, owned by the core. */
import type { ConfigStore } from '../config.js';
import type { DataPaths } from '../data-paths.js';
import type { Disposables } from '../lifecycle.js';
import type { Store } from '../store/store.js';
import type { ToolService } from '../store/tools.js';
import type { ContextCostService } from '../agents/context-cost.js';
import type { StoreEvent } from '../../../shared/operations.js';
import { ProfileStore } from './profile-store.js';
import { ProfileTokens } from './profile-tokens.js';
import { ProfileService } from './profile-service.js';

export async function openProfiles(deps: {
  paths: DataPaths;
  store: Store;
  tools: ToolService;
  config: ConfigStore;
  contextCost: ContextCostService;
  owned: Disposables;
  emit: (e: StoreEvent) => void;
}): Promise<{ profileStore: ProfileStore; profiles: ProfileService }> {
  const { paths, store, owned } = deps;
  const profileStore = await ProfileStore.open(paths, () => store.now());
  owned.listen(profileStore, 'event', deps.emit);
  const profileTokens = new ProfileTokens(paths, () => store.now());
  owned.add(() => profileTokens.close());
  const profiles = new ProfileService(
    profileStore,
    profileTokens,
    () => store.reader,
    deps.tools,
    () => deps.config.get().toolsEnabled,
    deps.contextCost,
  );
  return { profileStore, profiles };
}
