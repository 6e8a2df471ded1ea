/** An error in a transfer dialog: its message (after its code, where asked) and the field issues it carries. */
import { errorCode, errorMessage, ApiCallError } from '../../api/errors.js';
import { Badge } from '../../components/States.js';
import './transfer.css';

export function ErrorDetails({ error, testId, showCode = false }: { error: unknown; testId: string; showCode?: boolean }) {
  const issues = error instanceof ApiCallError ? error.issues : [];
  return (
    <div className="report-error" role="alert" data-testid={testId}>
      <p>
        {showCode ? (
          <>
            {errorCode(error) && <Badge tone="danger">{errorCode(error)}</Badge>} {errorMessage(error)}
          </>
        ) : (
          errorMessage(error)
        )}
      </p>
      {issues.length > 0 && (
        <ul className="report-issues">
          {issues.map((i) => (
            <li key={`${i.field}:${i.message}`}>
              {i.field && <code>{i.field}</code>} {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
