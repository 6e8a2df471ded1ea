/**
 * An upstream MCP server's question (its `elicitation/create`) as a small form: one field per
 * property of the flat schema the server sent (text, number, yes/no, a choice). The server's own
 * words are shown as plain text; what the person sends is checked again by the core.
 */
import { useId, useState } from 'react';
import type { ApprovalQuestion } from '../../../../shared/types.js';

type Field = Record<string, unknown>;

function initialOf(field: Field): unknown {
  if (field['default'] !== undefined) return field['default'];
  return field['type'] === 'boolean' ? false : '';
}

/** The values as the schema wants them: numbers as numbers, empty optional fields left out. */
export function answerContent(question: ApprovalQuestion, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(question.requestedSchema.properties)) {
    const v = values[name];
    if (v === '' || v === undefined) continue;
    out[name] = (field['type'] === 'number' || field['type'] === 'integer') && typeof v === 'string' ? Number(v) : v;
  }
  return out;
}

export function AnswerForm({
  question,
  pending,
  onAnswer,
  onDecline,
}: {
  question: ApprovalQuestion;
  pending: boolean;
  onAnswer: (content: Record<string, unknown>) => void;
  onDecline: () => void;
}) {
  const id = useId();
  const properties = Object.entries(question.requestedSchema.properties);
  const required = new Set(question.requestedSchema.required ?? []);
  const [values, setValues] = useState<Record<string, unknown>>(() => Object.fromEntries(properties.map(([n, f]) => [n, initialOf(f)])));
  const set = (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value }));
  return (
    <form
      className="approval-answer"
      onSubmit={(e) => {
        e.preventDefault();
        onAnswer(answerContent(question, values));
      }}
    >
      <p className="approval-question" data-testid="approval-question">
        {question.message}
      </p>
      {properties.map(([name, field]) => {
        const label = String(field['title'] ?? name);
        const fieldID = `${id}-${name}`;
        const description = typeof field['description'] === 'string' ? field['description'] : undefined;
        const choices = Array.isArray(field['enum']) ? (field['enum'] as unknown[]).map(String) : undefined;
        return (
          <div className="approval-field" key={name}>
            {field['type'] === 'boolean' ? (
              <label>
                <input type="checkbox" checked={values[name] === true} onChange={(e) => set(name, e.target.checked)} /> {label}
              </label>
            ) : (
              <>
                <label htmlFor={fieldID}>
                  {label}
                  {required.has(name) ? ' (required)' : ''}
                </label>
                {choices ? (
                  <select id={fieldID} value={String(values[name] ?? '')} onChange={(e) => set(name, e.target.value)} required={required.has(name)}>
                    <option value="">Choose…</option>
                    {choices.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={fieldID}
                    type={field['type'] === 'number' || field['type'] === 'integer' ? 'number' : 'text'}
                    value={String(values[name] ?? '')}
                    onChange={(e) => set(name, e.target.value)}
                    required={required.has(name)}
                    data-testid={`approval-field-${name}`}
                  />
                )}
              </>
            )}
            {description ? <p className="muted approval-field-help">{description}</p> : null}
          </div>
        );
      })}
      <div className="approval-actions">
        <button type="button" className="btn" onClick={onDecline} disabled={pending} data-testid="approval-deny">
          Decline
        </button>
        <button type="submit" className="btn btn-primary" disabled={pending} data-testid="approval-answer">
          Send answer
        </button>
      </div>
    </form>
  );
}
