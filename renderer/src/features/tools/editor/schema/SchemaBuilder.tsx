/**
 * The visual argument-schema builder, beside the JSON editor. It reads the JSON text and writes
 * it back with minimal edits (schemaModel.ts), so both views edit the same schema: what the
 * builder does not know stays as written, and it says so. Names, allowed values and defaults are
 * applied when the field is left or Enter is pressed (half-typed names would rename the property
 * at every keystroke); types, switches and descriptions apply at once.
 */
import { useEffect, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { JSONPath } from 'jsonc-parser';
import {
  BUILDER_TYPES,
  addProperty,
  formatDefault,
  formatEnum,
  freshName,
  parseDefault,
  parseEnum,
  readSchema,
  removeProperty,
  renameProperty,
  setClosed,
  setDefault,
  setDescription,
  setEnum,
  setRequired,
  setType,
  type BuilderType,
  type ObjectNode,
  type PropertyNode,
  type SchemaNode,
} from './schemaModel.js';
import './SchemaBuilder.css';

interface Ctx {
  text: string;
  apply(edit: (text: string) => string): string | null;
  readOnly: boolean;
}

/** A property's place for labels and test ids: `address.street`, `tags[]` for an array's items. */
const pathLabel = (path: JSONPath) =>
  path
    .filter((p) => p !== 'properties')
    .join('.')
    .replace(/\.items(?=\.|$)/g, '[]') || 'arguments';

/** A text field that commits on blur or Enter, showing why a value was refused. */
function CommitField({
  label,
  value,
  onCommit,
  placeholder,
  className,
  mono,
  testId,
  disabled,
}: {
  label: string;
  value: string;
  onCommit(v: string): string | null;
  placeholder?: string;
  className?: string;
  mono?: boolean;
  testId?: string;
  disabled?: boolean;
}) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  useEffect(() => {
    setDraft(value);
    setError(null);
  }, [value]);
  const commit = () => {
    if (draft === value) return setError(null);
    setError(onCommit(draft));
  };
  return (
    <div className={`sb-field ${className ?? ''}`}>
      <label className="sb-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={`input input-small${mono ? ' mono' : ''}`}
        value={draft}
        placeholder={placeholder}
        disabled={disabled}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          } else if (e.key === 'Escape' && draft !== value) {
            e.preventDefault();
            e.stopPropagation();
            setDraft(value);
            setError(null);
          }
        }}
        data-testid={testId}
      />
      {error && (
        <div id={`${id}-err`} className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

function TypeSelect({ node, ctx, label, testId }: { node: SchemaNode; ctx: Ctx; label: string; testId?: string }) {
  const id = useId();
  return (
    <div className="sb-field sb-type">
      <label className="sb-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="input input-small"
        value={node.type ?? ''}
        disabled={ctx.readOnly || !!node.blocked}
        onChange={(e) => ctx.apply((t) => setType(t, node.path, e.target.value as BuilderType))}
        data-testid={testId}
      >
        {node.type === null && <option value="">{node.typeText ?? 'any'}</option>}
        {BUILDER_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </div>
  );
}

function Notes({ node }: { node: SchemaNode }) {
  if (!node.blocked && !node.extras.length) return null;
  return (
    <p className="sb-note" data-testid="sb-note">
      {node.blocked && <>The builder leaves this one as written: it {node.blocked}. </>}
      {node.extras.length > 0 && (
        <>
          Also uses <span className="mono">{node.extras.join(', ')}</span> (kept as written; edit in the JSON).
        </>
      )}
    </p>
  );
}

/** Allowed values and default of a schema, when its type has them. */
function ValueFields({ node, ctx, name }: { node: SchemaNode; ctx: Ctx; name: string }) {
  const canEnum = node.type === 'string' || node.type === 'number' || node.type === 'integer';
  return (
    <div className="sb-row">
      {canEnum && (
        <CommitField
          label="Allowed values"
          className="grow"
          value={formatEnum(node.enumValues)}
          placeholder={node.type === 'string' ? 'a, b, c (empty: any)' : '1, 2, 3 (empty: any)'}
          disabled={ctx.readOnly}
          onCommit={(v) => {
            const parsed = parseEnum(v, node.type);
            if (!parsed.ok) return parsed.message;
            return ctx.apply((t) => setEnum(t, node.path, parsed.value));
          }}
          testId={`sb-enum-${name}`}
        />
      )}
      {node.type !== 'object' && node.type !== 'array' && (
        <CommitField
          label="Default"
          className="sb-default"
          mono={node.type !== 'string'}
          value={formatDefault(node)}
          placeholder={node.type === 'boolean' ? 'true or false' : 'none'}
          disabled={ctx.readOnly}
          onCommit={(v) => {
            const parsed = parseDefault(v, node.type);
            if (!parsed.ok) return parsed.message;
            return ctx.apply((t) => setDefault(t, node.path, parsed.value));
          }}
          testId={`sb-default-${name}`}
        />
      )}
    </div>
  );
}

function PropertyCard({ prop, parent, ctx }: { prop: PropertyNode; parent: ObjectNode; ctx: Ctx }) {
  const where = pathLabel(prop.path);
  return (
    <li className="sb-prop" data-testid={`sb-prop-${where}`}>
      <div className="sb-row sb-head">
        <CommitField
          label="Name"
          className="grow"
          mono
          value={prop.name}
          disabled={ctx.readOnly}
          onCommit={(v) => {
            const name = v.trim();
            if (!name) return 'a property needs a name';
            return ctx.apply((t) => renameProperty(t, parent.path, prop.name, name));
          }}
          testId={`sb-name-${where}`}
        />
        <TypeSelect node={prop} ctx={ctx} label="Type" testId={`sb-type-${where}`} />
        <label className="check sb-required">
          <input
            type="checkbox"
            checked={prop.required}
            disabled={ctx.readOnly}
            onChange={(e) => ctx.apply((t) => setRequired(t, parent.path, prop.name, e.target.checked))}
            data-testid={`sb-required-${where}`}
          />{' '}
          Required
        </label>
        {!ctx.readOnly && (
          <button
            type="button"
            className="icon-btn sb-remove"
            aria-label={`Remove ${where}`}
            title={`Remove ${where}`}
            onClick={() => ctx.apply((t) => removeProperty(t, parent.path, prop.name))}
            data-testid={`sb-remove-${where}`}
          >
            ×
          </button>
        )}
      </div>
      {!prop.blocked && (
        <>
          <div className="sb-row">
            <div className="sb-field grow">
              <DescriptionField node={prop} ctx={ctx} testId={`sb-description-${where}`} />
            </div>
          </div>
          <ValueFields node={prop} ctx={ctx} name={where} />
        </>
      )}
      <Notes node={prop} />
      {prop.object && <ObjectEditor node={prop.object} ctx={ctx} nested />}
      {prop.items && <ItemsEditor items={prop.items} ctx={ctx} where={where} />}
    </li>
  );
}

function DescriptionField({ node, ctx, testId }: { node: SchemaNode; ctx: Ctx; testId: string }) {
  const id = useId();
  return (
    <>
      <label className="sb-label" htmlFor={id}>
        Description
      </label>
      <input
        id={id}
        className="input input-small"
        value={node.description}
        placeholder="What the agent should pass here"
        disabled={ctx.readOnly}
        onChange={(e) => ctx.apply((t) => setDescription(t, node.path, e.target.value))}
        data-testid={testId}
      />
    </>
  );
}

function ItemsEditor({ items, ctx, where }: { items: SchemaNode; ctx: Ctx; where: string }) {
  return (
    <div className="sb-items" data-testid={`sb-items-${where}`}>
      <div className="sb-row">
        <TypeSelect node={items} ctx={ctx} label="Each item is" testId={`sb-items-type-${where}`} />
        {!items.blocked && items.type !== 'object' && items.type !== 'array' && <ValueFields node={items} ctx={ctx} name={`${where}[]`} />}
      </div>
      <Notes node={items} />
      {items.object && <ObjectEditor node={items.object} ctx={ctx} nested />}
      {items.items && <p className="sb-note">Arrays of arrays: edit the inner items in the JSON.</p>}
    </div>
  );
}

function ObjectEditor({ node, ctx, nested }: { node: ObjectNode; ctx: Ctx; nested?: boolean }): ReactNode {
  const where = pathLabel(node.path);
  if (node.tooDeep) return <p className="sb-note">Deeper levels are edited in the JSON.</p>;
  return (
    <div className={nested ? 'sb-object sb-nested' : 'sb-object'}>
      {node.properties.length === 0 ? (
        <p className="muted sb-empty">{nested ? 'No properties yet.' : 'No arguments yet: the tool is called with {}.'}</p>
      ) : (
        <ul className="sb-props">
          {/* By position: a renamed property keeps its row, and focus stays in it. */}
          {node.properties.map((p, i) => (
            <PropertyCard key={i} prop={p} parent={node} ctx={ctx} />
          ))}
        </ul>
      )}
      <div className="sb-object-foot">
        {!ctx.readOnly && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              const name = freshName(ctx.text, node.path);
              if (ctx.apply((t) => addProperty(t, node.path, name)) !== null) return;
              // The new row's name field, selected, ready to be typed over.
              requestAnimationFrame(() => {
                const input = document.querySelector<HTMLInputElement>(`[data-testid="sb-name-${CSS.escape(pathLabel([...node.path, 'properties', name]))}"]`);
                input?.focus();
                input?.select();
              });
            }}
            aria-label={nested ? `Add property to ${where}` : 'Add argument'}
            data-testid={`sb-add-${where}`}
          >
            + Add {nested ? 'property' : 'argument'}
          </button>
        )}
        {node.additional !== 'schema' ? (
          <label className="check">
            <input
              type="checkbox"
              checked={node.additional === false}
              disabled={ctx.readOnly}
              onChange={(e) => ctx.apply((t) => setClosed(t, node.path, e.target.checked))}
              data-testid={`sb-closed-${where}`}
            />{' '}
            No other properties
          </label>
        ) : (
          <span className="sb-note">Other properties follow a schema (edit it in the JSON).</span>
        )}
      </div>
    </div>
  );
}

export function SchemaBuilder({ text, onChange, readOnly = false }: { text: string; onChange(text: string): void; readOnly?: boolean }) {
  const model = readSchema(text);
  const [error, setError] = useState<string | null>(null);
  const ctx: Ctx = {
    text,
    readOnly,
    apply(edit) {
      try {
        const next = edit(text);
        if (next !== text) onChange(next);
        setError(null);
        return null;
      } catch (e) {
        const message = (e as Error).message;
        setError(message);
        return message;
      }
    },
  };
  return (
    <div className="schema-builder" role="group" aria-label="Argument schema builder" data-testid="schema-builder">
      {!model.ok ? (
        <p className="sb-note" data-testid="sb-unavailable">
          {model.reason}
        </p>
      ) : (
        <>
          {model.notes.map((n) => (
            <p key={n} className="sb-note" data-testid="sb-note">
              {n}
            </p>
          ))}
          {model.root.extras.length > 0 && (
            <p className="sb-note">
              The schema also uses <span className="mono">{model.root.extras.join(', ')}</span> at the top (kept as written).
            </p>
          )}
          <ObjectEditor node={model.root.object} ctx={ctx} />
        </>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
