/** "Agents may misread this tool": the lint's findings of one tool, each with its fix (tools.lint), and the guard's "Accept findings". */
import { useToolLint } from '../../../api/queries.js';
import { Badge } from '../../../components/States.js';
import type { ToolView } from '../../../../../shared/types.js';
import { AcceptFindings } from '../../guard/AcceptFindings.js';
import './ToolFindings.css';

export function ToolFindings({ tool }: { tool: ToolView }) {
  const lint = useToolLint({ toolID: tool.toolID });
  const items = lint.data?.items ?? [];
  if (!items.length) return null;
  return (
    <section className="panel tool-findings" aria-labelledby="tool-findings-title" data-testid="tool-findings">
      <h2 className="panel-title" id="tool-findings-title">
        Agents may misread this tool
      </h2>
      <AcceptFindings tool={tool} />
      <ul>
        {items.map((f, i) => (
          <li key={`${f.rule}-${i}`} data-testid={`finding-${f.rule}`}>
            <Badge tone={f.severity === 'error' ? 'danger' : 'warn'}>{f.severity}</Badge> <span>{f.message}</span>
            <p className="finding-fix">
              <span className="muted">Fix:</span> {f.fix}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
