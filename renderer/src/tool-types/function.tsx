/** The editor module of `function` tools: a function registered in the app, picked from a list. */
import { errorMessage } from '../api/errors.js';
import { useFunctions } from '../api/queries.js';
import { Badge } from '../components/States.js';
import { SAFETY_LABEL, SAFETY_TONE } from '../lib/format.js';
import { Field } from '../components/Field.js';
import type { FunctionInfo } from '../../../shared/types.js';
import { str, type DraftCommon, type EditorTypeModule, type ImplEditorProps, type SetIssue } from './editor-type.js';
import './function.css';

export interface FunctionDraft {
  functionName: string;
}

/** A registered function's schemas and safety, for the picker's "use" action. */
export function functionDefaults(common: DraftCommon, fn: FunctionInfo): Partial<DraftCommon> {
  return {
    argSchemaText: JSON.stringify(fn.argSchema ?? {}, null, 2),
    outputSchemaText: JSON.stringify(fn.outputSchema ?? {}, null, 2),
    safety: fn.safety,
    description: common.description || fn.description,
  };
}

function checkFunction(d: FunctionDraft, _ctx: unknown, set: SetIssue): void {
  if (!d.functionName.trim()) set('impl.function', 'pick a registered function');
}

function FunctionImplEditor({ value: draft, onChange, common, onCommon, errors, readOnly }: ImplEditorProps<FunctionDraft>) {
  const fns = useFunctions();
  const value = draft.functionName;
  const selected = fns.data?.items.find((f) => f.name === value);
  const onPick = (name: string) => onChange({ functionName: name });
  const onUse = (fn: FunctionInfo) => {
    onChange({ functionName: fn.name });
    onCommon(functionDefaults(common, fn));
  };
  return (
    <fieldset className="fieldset" disabled={readOnly}>
      <legend>Function</legend>
      <Field
        label="Registered function"
        error={errors.get('impl.function') ?? (value && fns.data && !selected ? `${value} is not registered in this app` : undefined)}
      >
        {(id) =>
          fns.isPending ? (
            <div className="muted">Loading functions…</div>
          ) : fns.isError ? (
            <div className="field-error">{errorMessage(fns.error)}</div>
          ) : (
            <select id={id} className="input mono" value={value} onChange={(e) => onPick(e.target.value)} data-testid="function-picker">
              <option value="">Choose a function…</option>
              {value && !selected && <option value={value}>{value} (not registered)</option>}
              {fns.data.items.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.name}
                </option>
              ))}
            </select>
          )
        }
      </Field>
      {selected && (
        <div className="fn-info">
          <p>{selected.description}</p>
          <Badge tone={SAFETY_TONE[selected.safety]}>{SAFETY_LABEL[selected.safety]}</Badge>{' '}
          {!readOnly && (
            <button type="button" className="btn btn-small" onClick={() => onUse(selected)}>
              Use its argument and output schemas
            </button>
          )}
        </div>
      )}
    </fieldset>
  );
}

export const functionEditorType: EditorTypeModule<'function', FunctionDraft> = {
  type: 'function',
  label: 'Function',
  empty: () => ({ functionName: '' }),
  fromImpl: (impl) => ({ functionName: str(impl['function']) }),
  toImpl: (d) => ({ function: d.functionName.trim() }),
  check: checkFunction,
  fields: ['impl.function'],
  Editor: FunctionImplEditor,
};
