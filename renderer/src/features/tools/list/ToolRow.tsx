/** One row of the tool list: name, bundle, safety, availability, last call, and the switch. */
import { memo } from 'react';
import { Switch } from '../../../components/Switch.js';
import { Badge } from '../../../components/States.js';
import { relativeTime, absoluteTime, formatCount, plural, SAFETY_LABEL, SAFETY_TONE } from '../../../lib/format.js';
import type { ToolView } from '../../../../../shared/types.js';
import { compactTokens, TOKENIZER_BASIS, tokensApprox } from '../../../../../shared/agents/context-cost.js';
import { rowStatusOf } from '../../../tool-types/slot-registry.js';

export const ROW_HEIGHT = 52;

/**
 * Memoised with stable callbacks: a refetch of the list (another process wrote a tool) renders
 * again only the rows whose tool changed, not every row in view.
 */
export const ToolRow = memo(function ToolRow({
  tool,
  index,
  bundleName,
  active,
  onOpen,
  onToggle,
  bundleOff,
}: {
  tool: ToolView;
  index: number;
  bundleName?: string | undefined;
  active: boolean;
  onOpen(index: number, tool: ToolView): void;
  onToggle(tool: ToolView, on: boolean): void;
  bundleOff: boolean;
}) {
  const avail = tool.availability;
  const status = rowStatusOf(tool);
  return (
    <div
      role="row"
      className={`tool-row${active ? ' is-active' : ''}${tool.isEnabled && !bundleOff ? '' : ' is-off'}`}
      tabIndex={active ? 0 : -1}
      data-testid={`tool-row-${tool.slug}`}
      onClick={() => onOpen(index, tool)}
      aria-label={`${tool.displayName || tool.slug}, ${tool.type}, ${SAFETY_LABEL[tool.effectiveSafety ?? tool.safety]}`}
    >
      <div role="cell" className="cell cell-name">
        <span className="tool-name">{tool.displayName || tool.slug}</span>
        <span className="tool-id mono">
          {tool.slug}
          <span className="muted">@{tool.version}</span>
          {bundleName && <span className="muted"> · {bundleName}</span>}
          {tool.contextTokens !== undefined && (
            <span
              className="muted"
              title={`${tokensApprox(tool.contextTokens)} of context per agent request (${TOKENIZER_BASIS})`}
              data-testid="row-context-tokens"
            >
              {' '}
              · {compactTokens(tool.contextTokens)}
            </span>
          )}
        </span>
      </div>
      <div role="cell" className="cell cell-type">
        <Badge>{tool.type}</Badge>
        {tool.isBuiltIn && <Badge tone="info">built-in</Badge>}
      </div>
      <div role="cell" className="cell cell-safety">
        <Badge tone={SAFETY_TONE[tool.effectiveSafety ?? tool.safety]}>{SAFETY_LABEL[tool.effectiveSafety ?? tool.safety]}</Badge>
      </div>
      <div role="cell" className="cell cell-avail">
        {status ? (
          // A tool type's own word for the state (tool-types/slots.ts: an upstream tool's new, changed, gone).
          <Badge tone={status.tone} title={status.title}>
            {status.label}
          </Badge>
        ) : avail.ok ? (
          <span className="avail avail-ok">available</span>
        ) : (
          <span className="avail avail-bad" title={avail.reason}>
            <span className="avail-dot" aria-hidden="true" />
            <span className="avail-text">{avail.reason ?? 'unavailable'}</span>
          </span>
        )}
      </div>
      <div role="cell" className="cell cell-num" title={`${plural(tool.metrics.callCount, 'call')}, ${plural(tool.metrics.errorCount, 'error')}`}>
        {formatCount(tool.metrics.callCount)}
      </div>
      <div role="cell" className="cell cell-when" title={absoluteTime(tool.metrics.lastCalledAt)}>
        {relativeTime(tool.metrics.lastCalledAt)}
      </div>
      <div role="cell" className="cell cell-switch">
        {/* Not keyed by tool (a new input per recycled row): the list stops switch transitions while it scrolls instead (ToolList.css). */}
        <Switch
          checked={tool.isEnabled}
          label={`${tool.displayName || tool.slug} enabled`}
          onChange={(on) => onToggle(tool, on)}
          testId={`tool-switch-${tool.slug}`}
          tabIndex={-1}
        />
      </div>
    </div>
  );
});
