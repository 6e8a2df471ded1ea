/** What a profile's tools/list costs an agent in its mode, beside the other mode's cost. */
import { plural } from '../../lib/format.js';
import { tokensApprox, TOKENIZER_BASIS } from '../../../../shared/agents/context-cost.js';
import type { ProfileSummary } from '../../../../shared/agents/profiles.js';
import './Profiles.css';

export function CostLine({ p }: { p: Pick<ProfileSummary, 'mode' | 'contextTokens'> }) {
  const { listed, search, pending } = p.contextTokens;
  return (
    <span className="profile-cost" title={`Tokens of the tools/list answer (${TOKENIZER_BASIS})`}>
      <span className={p.mode === 'all' ? 'is-chosen' : 'muted'}>every tool listed {tokensApprox(listed)}</span>
      {' · '}
      <span className={p.mode === 'search' ? 'is-chosen' : 'muted'}>search mode {tokensApprox(search)}</span>
      {pending > 0 && <span className="muted"> ({plural(pending, 'tool')} not counted yet)</span>}
    </span>
  );
}
