/**
 * profile.json of every profile (`<data>/profiles/<profileID>/profile.json`), in memory and on
 * disk. Writes are atomic, pretty-printed in a stable key order, and made under the profiles'
 * lock, which also keeps slugs unique across profiles and processes: under it the folder is read
 * afresh before a slug is judged free. Changes made elsewhere (another process, an editor) come
 * in through the store's watcher (sync), and every change is told as a profile event.
 */
import { EventEmitter } from 'node:events';
import { promises as fsp } from 'node:fs';
import type { StoreEvent } from '../../../shared/operations.js';
import { PROFILE_KEY_ORDER, SCOPE_TOKEN, type ProfileFile, type ProfileInput } from '../../../shared/agents/profiles.js';
import { canonicalJson } from '../../../shared/canonical.js';
import { checkSlug } from '../../../shared/slug.js';
import { isUuid } from '../../../shared/ids.js';
import { CoreError, invalid, notFound } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { readJsonIn } from '../fs/json-text.js';
import type { DataPaths } from '../data-paths.js';

type ProfileEvent = Extract<StoreEvent, { type: 'profile.changed' | 'profile.removed' }>;

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);

/** A profile.json as read: the file, or undefined when it is not a profile (it is then left alone, never overwritten). */
function parseProfile(value: unknown, profileID: string): ProfileFile | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (v['profileID'] !== profileID || typeof v['slug'] !== 'string' || !strings(v['bundles'])) return undefined;
  const file: ProfileFile = {
    profileID,
    slug: v['slug'],
    displayName: typeof v['displayName'] === 'string' ? v['displayName'] : v['slug'],
    bundles: strings(v['bundles'])!,
    mode: v['mode'] === 'search' ? 'search' : 'all',
    createdAt: typeof v['createdAt'] === 'string' ? v['createdAt'] : '',
    modifiedAt: typeof v['modifiedAt'] === 'string' ? v['modifiedAt'] : '',
  };
  const include = strings(v['include']);
  const exclude = strings(v['exclude']);
  if (include) file.include = include;
  if (exclude) file.exclude = exclude;
  if (typeof v['overrides'] === 'object' && v['overrides'] !== null) file.overrides = v['overrides'] as ProfileFile['overrides'] & object;
  if (typeof v['instructions'] === 'string') file.instructions = v['instructions'];
  if (typeof v['requiredScope'] === 'string') file.requiredScope = v['requiredScope'];
  return file;
}

export class ProfileStore extends EventEmitter<{ event: [ProfileEvent] }> {
  private readonly profiles = new Map<string, ProfileFile>();

  private constructor(
    readonly paths: DataPaths,
    private readonly now: () => string,
  ) {
    super();
  }

  static async open(paths: DataPaths, now: () => string): Promise<ProfileStore> {
    const store = new ProfileStore(paths, now);
    await fsp.mkdir(paths.profilesDir, { recursive: true });
    await store.loadAll();
    return store;
  }

  /** By slug. */
  list(): ProfileFile[] {
    return [...this.profiles.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  }

  get(profileID: string): ProfileFile | undefined {
    return this.profiles.get(profileID);
  }

  bySlug(slug: string): ProfileFile | undefined {
    const wanted = slug.normalize('NFC');
    for (const p of this.profiles.values()) if (p.slug === wanted) return p;
    return undefined;
  }

  private async read(profileID: string): Promise<ProfileFile | undefined> {
    const read = await readJsonIn(this.paths.dataDir, this.paths.profileFile(profileID));
    return read.kind === 'ok' ? parseProfile(read.value, profileID) : undefined;
  }

  private async loadAll(): Promise<void> {
    const names = await fsp.readdir(this.paths.profilesDir).catch(() => [] as string[]);
    const seen = new Set<string>();
    await Promise.all(
      names.filter(isUuid).map(async (id) => {
        const file = await this.read(id);
        if (file) {
          seen.add(id);
          this.remember(file);
        }
      }),
    );
    for (const id of [...this.profiles.keys()]) if (!seen.has(id)) this.forget(id);
  }

  private remember(file: ProfileFile): void {
    const before = this.profiles.get(file.profileID);
    this.profiles.set(file.profileID, file);
    if (!before || JSON.stringify(before) !== JSON.stringify(file)) this.emit('event', { type: 'profile.changed', profileID: file.profileID });
  }

  private forget(profileID: string): void {
    if (this.profiles.delete(profileID)) this.emit('event', { type: 'profile.removed', profileID });
  }

  /** Brings one profile in from disk (the watcher saw its folder or file change). */
  async sync(profileID: string): Promise<void> {
    if (!isUuid(profileID)) return;
    const file = await this.read(profileID);
    if (file) this.remember(file);
    else this.forget(profileID);
  }

  /** Create or replace. `ifModifiedAt`: replace only the version the caller read (`*`: only an existing one). */
  async put(profileID: string, input: ProfileInput, ifModifiedAt?: string): Promise<{ file: ProfileFile; created: boolean }> {
    const slug = checkSlug(input.slug);
    if (!slug.ok) throw invalid([{ field: 'slug', message: slug.message! }]);
    if (input.requiredScope && !SCOPE_TOKEN.test(input.requiredScope)) {
      throw invalid([
        { field: 'requiredScope', message: 'an OAuth scope is one word of printable ASCII without spaces, quotes or backslashes (e.g. team:ops)' },
      ]);
    }
    if (input.profileID !== undefined && input.profileID.toLowerCase() !== profileID) {
      throw invalid([{ field: 'profileID', message: `differs from the profile ID in the path (${profileID}); leave it out or make them equal` }]);
    }
    return withLock(this.paths.profilesLock, async () => {
      await this.loadAll();
      const existing = this.profiles.get(profileID);
      if (ifModifiedAt !== undefined) {
        if (!existing) throw notFound(`profile ${profileID} (ifModifiedAt asks to replace an existing profile)`);
        if (ifModifiedAt !== '*' && ifModifiedAt !== existing.modifiedAt) {
          throw new CoreError(
            'MODIFIED_ELSEWHERE',
            `profile '${existing.slug}' was changed at ${existing.modifiedAt}, after the version you sent; reload it and try again`,
          );
        }
      }
      const holder = this.bySlug(slug.value);
      if (holder && holder.profileID !== profileID) {
        throw new CoreError('CONFLICT', `the slug '${slug.value}' is taken by profile ${holder.profileID}; choose another slug`, {
          profileID: holder.profileID,
        });
      }
      const file: ProfileFile = {
        profileID,
        slug: slug.value,
        displayName: input.displayName?.trim() || slug.value,
        bundles: [...new Set(input.bundles)],
        mode: input.mode ?? 'all',
        createdAt: existing?.createdAt || this.now(),
        modifiedAt: this.now(),
      };
      if (input.include?.length) file.include = [...new Set(input.include)];
      if (input.exclude?.length) file.exclude = [...new Set(input.exclude)];
      if (input.overrides && Object.keys(input.overrides).length) file.overrides = input.overrides;
      if (input.instructions) file.instructions = input.instructions;
      if (input.requiredScope) file.requiredScope = input.requiredScope;
      await fsp.mkdir(this.paths.profileDir(profileID), { recursive: true });
      await writeFileAtomic(this.paths.profileFile(profileID), canonicalJson(file as unknown as Record<string, unknown>, PROFILE_KEY_ORDER));
      this.remember(file);
      return { file, created: !existing };
    });
  }

  /** Removes the profile's folder: its file and its tokens. */
  async delete(profileID: string): Promise<void> {
    await withLock(this.paths.profilesLock, async () => {
      if (!(await this.read(profileID))) throw notFound(`profile ${profileID}`);
      await fsp.rm(this.paths.profileDir(profileID), { recursive: true, force: true });
      this.forget(profileID);
    });
  }
}
