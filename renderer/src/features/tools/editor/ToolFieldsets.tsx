/** The tool editor's plain fieldsets: each shows part of the draft and reports edits through `update`. */
import { Field, TextField } from '../../../components/Field.js';
import { JsonEditor } from '../../../components/code/JsonEditor.js';
import { checkArgSchema, checkJsonSchema } from './schema/schemaChecks.js';
import { EDITOR_TYPE_LIST, EDITOR_TYPES } from '../../../tool-types/registry.js';
import { SchemaBuilder } from './schema/SchemaBuilder.js';
import type { ToolDraft } from './draft.js';
import type { ToolType } from '../../../../../shared/schemas.js';
import './ToolFieldsets.css';

export interface FieldsetProps {
  draft: ToolDraft;
  update: <K extends keyof ToolDraft>(key: K, value: ToolDraft[K]) => void;
  errors: ReadonlyMap<string, string>;
  readOnly: boolean;
}

/** The tool's name, slug, version, description, type, safety and tags. */
export function GeneralFieldset({ draft, update, errors, readOnly, isNew }: FieldsetProps & { isNew: boolean }) {
  return (
    <fieldset className="fieldset" disabled={readOnly}>
      <legend>General</legend>
      <div className="row wrap">
        <TextField
          label="Slug"
          className="grow"
          hint="Letters (any script), digits and '-'; at most 64; case-sensitive."
          error={errors.get('slug')}
          mono
          value={draft.slug}
          onValue={(v) => update('slug', v)}
          autoFocus={isNew}
          data-autofocus={isNew || undefined}
          data-testid="tool-slug"
        />
        <TextField
          label="Version"
          className="w-mid"
          hint="Like the slug; '.' allowed."
          error={errors.get('version')}
          mono
          value={draft.version}
          onValue={(v) => update('version', v)}
          data-testid="tool-version"
        />
      </div>
      <TextField
        label="Display name"
        error={errors.get('displayName')}
        value={draft.displayName}
        maxLength={200}
        onValue={(v) => update('displayName', v)}
        data-testid="tool-name"
      />
      <Field label="Description" hint="Agents read this to decide when to call the tool." error={errors.get('description')}>
        {(id, d) => (
          <textarea
            id={id}
            aria-describedby={d}
            className="input"
            rows={3}
            value={draft.description}
            onChange={(e) => update('description', e.target.value)}
            data-testid="tool-description"
          />
        )}
      </Field>
      <div className="row wrap">
        <Field label="Type" className="w-mid" error={errors.get('type')}>
          {(id) => (
            <select id={id} className="input" value={draft.type} onChange={(e) => update('type', e.target.value as ToolType)} data-testid="tool-type">
              {EDITOR_TYPE_LIST.filter((t) => t.creatable !== false || t.type === draft.type).map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Safety" className="w-mid" hint="Privileged tools ask for confirmation before each run." error={errors.get('safety')}>
          {(id, d) => (
            <select
              id={id}
              aria-describedby={d}
              className="input"
              value={draft.safety}
              onChange={(e) => update('safety', e.target.value as ToolDraft['safety'])}
              data-testid="tool-safety"
            >
              <option value="auto">{EDITOR_TYPES[draft.type].safetyAutoLabel ?? 'Automatic (from type)'}</option>
              <option value="readOnly">Read-only</option>
              <option value="sideEffecting">Side effects</option>
              <option value="privileged">Privileged</option>
            </select>
          )}
        </Field>
        <TextField label="Tags" className="grow" hint="Comma-separated" error={errors.get('tags')} value={draft.tags} onValue={(v) => update('tags', v)} />
      </div>
      {isNew && (
        <label className="check">
          <input type="checkbox" checked={draft.isEnabled} onChange={(e) => update('isEnabled', e.target.checked)} /> Enabled
        </label>
      )}
    </fieldset>
  );
}

/** The argument schema (built or written as JSON) and the output schema. */
export function ArgumentsFieldset({ draft, update, readOnly, serverErrors }: Omit<FieldsetProps, 'errors'> & { serverErrors: ReadonlyMap<string, string> }) {
  return (
    <fieldset className="fieldset">
      <legend>Arguments and output</legend>
      <div className="schema-grid">
        <div className="field">
          <span className="field-label">Arguments</span>
          <SchemaBuilder text={draft.argSchemaText} onChange={(t) => update('argSchemaText', t)} readOnly={readOnly} />
        </div>
        <div className="field">
          <span className="field-label">Argument schema (JSON)</span>
          <JsonEditor
            label="Argument schema (JSON Schema)"
            value={draft.argSchemaText}
            onChange={(t) => update('argSchemaText', t)}
            check={checkArgSchema}
            readOnly={readOnly}
            minLines={8}
            serverError={serverErrors.get('argSchema')}
            testId="arg-schema"
          />
        </div>
      </div>
      <div className="field">
        <span className="field-label">Output schema (JSON)</span>
        <JsonEditor
          label="Output schema (JSON Schema)"
          value={draft.outputSchemaText}
          onChange={(t) => update('outputSchemaText', t)}
          check={checkJsonSchema}
          readOnly={readOnly}
          minLines={4}
          serverError={serverErrors.get('outputSchema')}
          testId="output-schema"
        />
      </div>
    </fieldset>
  );
}

/** A run's limits: timeout and output size. */
export function LimitsFieldset({ draft, update, errors, readOnly }: FieldsetProps) {
  return (
    <fieldset className="fieldset" disabled={readOnly}>
      <legend>Limits</legend>
      <div className="row wrap">
        <TextField
          label="Calls per minute"
          className="w-mid"
          hint="Empty: the app default"
          error={errors.get('limits.maxCallsPerMinute')}
          inputMode="numeric"
          value={draft.maxCallsPerMinute}
          onValue={(v) => update('maxCallsPerMinute', v)}
        />
        <TextField
          label="Max output bytes"
          className="w-mid"
          hint="Empty: the app default"
          error={errors.get('limits.maxOutputBytes')}
          inputMode="numeric"
          value={draft.maxOutputBytes}
          onValue={(v) => update('maxOutputBytes', v)}
        />
      </div>
    </fieldset>
  );
}
