/** Profiles: each an MCP address of its own, with what it lists and what that costs an agent's context. */
import { useProfiles } from '../../api/queries.js';
import { useNav } from '../../lib/nav.js';
import { plural } from '../../lib/format.js';
import { Badge, Empty, ErrorState, Loading } from '../../components/States.js';
import type { ProfileSummary } from '../../../../shared/agents/profiles.js';
import { CostLine } from './CostLine.js';
import '../../components/ListCards.css';

function missingText(p: ProfileSummary): string | undefined {
  const parts = [
    p.missing.bundles.length ? plural(p.missing.bundles.length, 'bundle') : '',
    p.missing.tools.length ? plural(p.missing.tools.length, 'tool') : '',
  ].filter(Boolean);
  const one = p.missing.bundles.length + p.missing.tools.length === 1;
  return parts.length ? `${parts.join(' and ')} no longer ${one ? 'exists' : 'exist'}` : undefined;
}

export function ProfileList() {
  const { go } = useNav();
  const profiles = useProfiles();
  return (
    <section className="page page-narrow" aria-labelledby="profiles-title" data-testid="profiles">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="profiles-title">
            Profiles
          </h1>
          <div className="spacer" />
          <button type="button" className="btn btn-primary" onClick={() => go({ name: 'profileNew' })} data-testid="new-profile">
            New profile
          </button>
        </div>
        <p className="page-sub">
          A profile is an MCP address of its own (<code>/mcp/p/&lt;slug&gt;</code>): some bundles, plus or minus some tools, with its own instructions and
          tokens. In search mode an agent gets three tools to find and call the rest, instead of every definition up front.
        </p>
      </header>
      {profiles.isPending ? (
        <Loading label="Loading profiles…" />
      ) : profiles.isError ? (
        <ErrorState error={profiles.error} retry={() => void profiles.refetch()} />
      ) : profiles.data.length === 0 ? (
        <Empty title="No profiles yet">Agents use /mcp, which lists every enabled tool.</Empty>
      ) : (
        <ul className="card-list">
          {profiles.data.map((p) => {
            const missing = missingText(p);
            return (
              <li key={p.profileID} className="list-card list-card-col" data-testid={`profile-row-${p.slug}`}>
                <div className="row">
                  <div className="grow">
                    <button type="button" className="link-btn list-card-title" onClick={() => go({ name: 'profile', profileID: p.profileID })}>
                      {p.displayName || p.slug}
                    </button>{' '}
                    <code className="muted">/mcp/p/{p.slug}</code>
                  </div>
                  <Badge tone={p.mode === 'search' ? 'info' : 'neutral'}>{p.mode === 'search' ? 'search' : 'all tools'}</Badge>
                  <span className="count">{plural(p.toolCount, 'tool')}</span>
                </div>
                <CostLine p={p} />
                {missing && (
                  <div className="field-warning" data-testid={`profile-missing-${p.slug}`}>
                    {missing}: kept in the profile, left out of its list.
                  </div>
                )}
                {p.mode === 'all' &&
                  p.warnings.map((w) => (
                    <div key={w} className="field-warning">
                      {w}
                    </div>
                  ))}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
