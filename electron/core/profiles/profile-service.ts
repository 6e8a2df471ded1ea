/** The profiles.* operations: the profile files, their views as agents see them, and their tokens. */
import type { ProfileDetail, ProfileFile, ProfileInput, ProfileSummary, ProfileTokenInfo, CreatedProfileToken } from '../../../shared/agents/profiles.js';
import { invalid, notFound } from '../errors.js';
import type { StoreReader } from '../store/reader.js';
import type { ToolService } from '../store/tools.js';
import type { ProfileStore } from './profile-store.js';
import type { ProfileTokens } from './profile-tokens.js';
import type { ContextCostService } from '../agents/context-cost.js';
import { SEARCH_MODE_TOKENS } from '../agents/search-mode-cost.js';
import { toolLimitWarnings } from '../../../shared/agents/context-cost.js';
import { missingRefs, overrideIssues, profileToolRows, profileTools } from './profile-view.js';

export class ProfileService {
  constructor(
    private readonly profiles: ProfileStore,
    readonly tokens: ProfileTokens,
    private readonly reader: () => StoreReader,
    private readonly tools: ToolService,
    private readonly toolsEnabled: () => boolean,
    private readonly contextCost?: ContextCostService,
  ) {}

  private visible(p: ProfileFile) {
    return this.toolsEnabled() ? profileTools(this.reader(), this.tools, p) : [];
  }

  private summary(p: ProfileFile, visible = this.visible(p)): ProfileSummary {
    const listed = this.contextCost?.totalOfAgentTools(visible);
    return {
      ...p,
      toolCount: visible.length,
      missing: missingRefs(this.reader(), p),
      contextTokens: { listed: listed?.tokens ?? 0, search: SEARCH_MODE_TOKENS, pending: listed?.pending ?? visible.length },
      warnings: p.mode === 'all' ? toolLimitWarnings(visible.length) : [],
    };
  }

  private existing(profileID: string): ProfileFile {
    const p = this.profiles.get(profileID);
    if (!p) throw notFound(`profile ${profileID}`);
    return p;
  }

  list(): { items: ProfileSummary[] } {
    return { items: this.profiles.list().map((p) => this.summary(p)) };
  }

  async get(profileID: string): Promise<ProfileDetail> {
    if (!this.profiles.get(profileID)) await this.profiles.sync(profileID);
    const p = this.existing(profileID);
    const tools = this.visible(p);
    return { ...this.summary(p, tools), tools: profileToolRows(tools) };
  }

  async put(profileID: string, input: ProfileInput, ifModifiedAt?: string): Promise<{ profile: ProfileSummary; created: boolean }> {
    const issues = overrideIssues(this.reader(), this.tools, {
      bundles: input.bundles,
      ...(input.include ? { include: input.include } : {}),
      ...(input.exclude ? { exclude: input.exclude } : {}),
      ...(input.overrides ? { overrides: input.overrides } : {}),
    });
    if (issues.length) throw invalid(issues, `${issues.length} override name(s) cannot be used: ${issues.map((i) => i.message).join('; ')}`.slice(0, 2000));
    const { file, created } = await this.profiles.put(profileID, input, ifModifiedAt);
    return { profile: this.summary(file), created };
  }

  async delete(profileID: string): Promise<{ deleted: true }> {
    await this.profiles.delete(profileID);
    this.tokens.forget(profileID);
    return { deleted: true };
  }

  async listTokens(profileID: string): Promise<{ items: ProfileTokenInfo[] }> {
    this.existing(profileID);
    return { items: await this.tokens.list(profileID) };
  }

  createToken(profileID: string, label: string | undefined): Promise<CreatedProfileToken> {
    this.existing(profileID);
    return this.tokens.create(profileID, label?.trim() || 'token');
  }

  async revokeToken(profileID: string, tokenID: string): Promise<{ revoked: true }> {
    this.existing(profileID);
    await this.tokens.revoke(profileID, tokenID);
    return { revoked: true };
  }
}
