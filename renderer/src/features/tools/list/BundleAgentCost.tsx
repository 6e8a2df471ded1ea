/**
 * Under a bundle's title: how many of its tools agents see and what their definitions cost in
 * every request, how many findings the lint has about them, and a warning when the tools agents
 * see across the whole app pass a client's limit.
 */
import { useBundles, useToolLint } from '../../../api/queries.js';
import { plural } from '../../../lib/format.js';
import type { BundleView } from '../../../../../shared/types.js';
import { TOKENIZER_BASIS, tokensApprox, toolLimitWarnings } from '../../../../../shared/agents/context-cost.js';
import './BundleAgentCost.css';

export function BundleAgentCost({ bundle }: { bundle: BundleView }) {
  const bundles = useBundles('exclude');
  const lint = useToolLint({ bundleID: bundle.bundleID });
  if (bundle.agentToolCount === undefined) return null;
  const appWide = (bundles.data ?? []).reduce((n, b) => n + (b.agentToolCount ?? 0), 0);
  const warnings = toolLimitWarnings(appWide);
  const findings = lint.data?.items ?? [];
  const errors = findings.filter((f) => f.severity === 'error').length;
  const toolsFlagged = new Set(findings.map((f) => f.toolID)).size;
  return (
    <>
      <p className="agent-cost" data-testid="bundle-agent-cost">
        Agents see {plural(bundle.agentToolCount, 'tool')}
        {bundle.contextTokens !== undefined && (
          <>
            {' · '}
            <span className="context-cost" title={`What these definitions add to every request of an agent offered them (${TOKENIZER_BASIS})`}>
              {tokensApprox(bundle.contextTokens)} of context
            </span>
          </>
        )}
        {findings.length > 0 && (
          <span className={errors ? 'agent-cost-errors' : 'muted'} data-testid="bundle-findings">
            {' · '}
            {plural(toolsFlagged, 'tool')} agents may misread ({plural(findings.length, 'finding')}
            {errors ? `, ${plural(errors, 'error')}` : ''}; each tool shows its own)
          </span>
        )}
      </p>
      {warnings.length > 0 && (
        <p className="notice" role="status" data-testid="tool-limit-warning">
          Agents see {plural(appWide, 'tool')} across all bundles: {warnings.join('; ')}. Switch off tools an agent does not need, or give it fewer bundles.
        </p>
      )}
    </>
  );
}
