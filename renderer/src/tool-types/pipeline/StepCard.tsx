/**
 * One step of a pipeline in the editor: its ID, the tool it calls (with a picker to change it),
 * and one template field per argument of that tool (from its argSchema), with autocomplete of
 * what the step may read: the pipeline's arguments and the values of earlier steps.
 */
import { useState } from 'react';
import { errorMessage } from '../../api/errors.js';
import { Badge } from '../../components/States.js';
import { SAFETY_LABEL, SAFETY_TONE } from '../../lib/format.js';
import { TemplateInput, type PlaceholderContext } from '../../features/tools/editor/TemplateInput.js';
import { ToolPicker } from './ToolPicker.js';
import { schemaPropertyNames, stepArgFit } from '../../../../shared/tool-types/pipeline-templates.js';
import type { ToolView } from '../../../../shared/types.js';
import type { Errors } from '../editor-type.js';
import { argPreview, argType, pipelineRules, unlessShown, wantsJson, type StepArgDraft, type StepDraft } from './draft.js';

export interface StepToolState {
  data?: ToolView;
  error?: unknown;
  pending: boolean;
}

interface StepCardProps {
  step: StepDraft;
  index: number;
  count: number;
  tool: StepToolState;
  /** Slug of the bundle the step's tool lives in, for its label. */
  bundleSlug?: string;
  ownBundleID: string;
  excludeToolID?: string;
  inputNames: readonly string[];
  stepIDs: readonly string[];
  suggestions: readonly string[];
  ctx: PlaceholderContext;
  errors: Errors;
  readOnly?: boolean;
  onChange(patch: Partial<StepDraft>): void;
  onPickTool(tool: ToolView): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

function propertySchema(argSchema: unknown, name: string): Record<string, unknown> | undefined {
  const props = (argSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const p = props && Object.hasOwn(props, name) ? props[name] : undefined;
  return typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : undefined;
}

export function StepCard(props: StepCardProps) {
  const { step, index, count, tool, errors, readOnly } = props;
  const [picking, setPicking] = useState(!step.tool && !readOnly);
  const at = `impl.steps[${index}]`;
  const name = step.id || `step ${index + 1}`;
  const t = tool.data;
  const schemaNames = t ? schemaPropertyNames(t.argSchema) : [];
  const extra = Object.keys(step.args).filter((n) => !schemaNames.includes(n));
  const names = [...schemaNames, ...extra];
  const fit = t ? stepArgFit(Object.fromEntries(Object.entries(step.args).filter(([, a]) => a.text.trim() !== '')), t.argSchema) : undefined;
  const required = new Set(Array.isArray((t?.argSchema as { required?: unknown })?.required) ? ((t!.argSchema as { required: string[] }).required ?? []) : []);
  const rules = pipelineRules(props.inputNames, props.stepIDs, index);
  const setArg = (argName: string, arg: StepArgDraft) => props.onChange({ args: { ...step.args, [argName]: arg } });
  const dropArg = (argName: string) => {
    const next = { ...step.args };
    delete next[argName];
    props.onChange({ args: next });
  };
  const safety = t ? (t.effectiveSafety ?? t.safety) : undefined;

  return (
    <li className="step-card" data-testid={`step-${index}`} aria-labelledby={`step-${step.key}-title`}>
      <div className="step-rail" aria-hidden="true">
        <span className="step-number">{index + 1}</span>
      </div>
      <div className="step-body">
        <div className="step-head">
          <h3 className="step-title" id={`step-${step.key}-title`}>
            Step {index + 1}
            {t && <span className="step-tool-name"> · {t.displayName || t.slug}</span>}
          </h3>
          <div className="spacer" />
          {!readOnly && (
            <div className="btn-group" role="group" aria-label={`Arrange step ${name}`}>
              <button
                type="button"
                className="btn btn-small"
                onClick={() => props.onMove(-1)}
                disabled={index === 0}
                aria-label={`Move step ${name} up`}
                title="Move up"
              >
                ↑
              </button>
              <button
                type="button"
                className="btn btn-small"
                onClick={() => props.onMove(1)}
                disabled={index === count - 1}
                aria-label={`Move step ${name} down`}
                title="Move down"
              >
                ↓
              </button>
              <button
                type="button"
                className="btn btn-small btn-danger-quiet"
                onClick={props.onRemove}
                aria-label={`Remove step ${name}`}
                data-testid={`step-${index}-remove`}
              >
                Remove
              </button>
            </div>
          )}
        </div>

        <div className="step-grid">
          <div className={`field step-id${errors.get(`${at}.id`) ? ' has-error' : ''}`}>
            <label className="field-label" htmlFor={`step-${step.key}-id`}>
              ID
            </label>
            <input
              id={`step-${step.key}-id`}
              className="input mono"
              value={step.id}
              readOnly={readOnly}
              aria-invalid={!!errors.get(`${at}.id`) || undefined}
              aria-describedby={`step-${step.key}-id-err`}
              onChange={(e) => props.onChange({ id: e.target.value })}
              data-testid={`step-${index}-id`}
            />
            <div id={`step-${step.key}-id-err`} className="field-error" aria-live="polite">
              {errors.get(`${at}.id`)}
            </div>
          </div>
          <div className={`field grow${errors.get(`${at}.tool`) ? ' has-error' : ''}`}>
            <span className="field-label">Calls</span>
            {picking ? (
              <ToolPicker
                ownBundleID={props.ownBundleID}
                excludeToolID={props.excludeToolID}
                label={`Tool for step ${name}`}
                onPick={(picked) => {
                  setPicking(false);
                  props.onPickTool(picked);
                }}
                onCancel={() => setPicking(false)}
                testId={`step-${index}-picker`}
              />
            ) : (
              <div className="step-tool" data-testid={`step-${index}-tool`}>
                {step.tool ? (
                  <>
                    <code className="step-tool-ref">
                      {props.bundleSlug ?? step.tool.bundleSlug ?? 'this bundle'}/{step.tool.slug}@{step.tool.version}
                    </code>
                    {t && <Badge>{t.type}</Badge>}
                    {safety && <Badge tone={SAFETY_TONE[safety]}>{SAFETY_LABEL[safety]}</Badge>}
                    {t && !t.isEnabled && <Badge tone="warn">off</Badge>}
                    {t && !t.availability.ok && (
                      <Badge tone="warn" title={t.availability.reason}>
                        unavailable
                      </Badge>
                    )}
                    {tool.pending && <span className="muted">loading…</span>}
                  </>
                ) : (
                  <span className="muted">No tool picked yet.</span>
                )}
                {!readOnly && (
                  <button type="button" className="btn btn-small" onClick={() => setPicking(true)} data-testid={`step-${index}-change-tool`}>
                    {step.tool ? 'Change tool' : 'Pick a tool'}
                  </button>
                )}
              </div>
            )}
            {tool.error !== undefined && step.tool && (
              <div className="field-error">
                {`${step.tool.slug} ${step.tool.version}`} cannot be loaded: {errorMessage(tool.error)}
              </div>
            )}
            {errors.get(`${at}.tool`) && <div className="field-error">{errors.get(`${at}.tool`)}</div>}
          </div>
        </div>

        {step.tool && (
          <div className="step-args" role="group" aria-label={`Arguments of step ${name}`}>
            {names.length === 0 && t && <p className="muted">This tool takes no arguments.</p>}
            {names.map((argName) => {
              const schema = propertySchema(t?.argSchema, argName);
              const arg = step.args[argName] ?? { text: '', json: wantsJson(schema) };
              const unknown = fit?.unknown.includes(argName);
              const missing = required.has(argName) && arg.text.trim() === '';
              const fieldError = unlessShown(errors.get(`${at}.args.${argName}`), rules, arg.text);
              const type = argType(schema);
              return (
                <div className={`step-arg${missing || unknown ? ' has-error' : ''}`} key={argName} data-testid={`step-${index}-arg-${argName}`}>
                  <label className="step-arg-name mono" htmlFor={`step-${step.key}-arg-${argName}`}>
                    {argName}
                    {required.has(argName) && (
                      <span className="step-arg-required" title="required">
                        *
                      </span>
                    )}
                    {type && <span className="step-arg-type">{type}</span>}
                  </label>
                  <div className="step-arg-value">
                    <TemplateInput
                      id={`step-${step.key}-arg-${argName}`}
                      label={`${argName} of step ${name}`}
                      value={arg.text}
                      onChange={(text) => setArg(argName, { text, json: arg.json || wantsJson(schema) })}
                      ctx={props.ctx}
                      rules={rules}
                      suggestions={props.suggestions}
                      readOnly={readOnly}
                      placeholder={required.has(argName) ? 'required: ${input.…}, ${steps.…} or a value' : 'optional'}
                      serverError={fieldError}
                      testId={`step-${index}-arg-${argName}-input`}
                    />
                    <div className="field-hint">
                      {missing
                        ? null
                        : unknown
                          ? null
                          : `${argPreview(arg)}${typeof schema?.['description'] === 'string' ? ` · ${schema['description']}` : ''}`}
                    </div>
                    {missing && !fieldError && <div className="field-error">required by {t?.slug}: map it to a value</div>}
                    {unknown && (
                      <div className="field-error">
                        {t?.slug} has no argument “{argName}”.{' '}
                        {!readOnly && (
                          <button type="button" className="link-btn" onClick={() => dropArg(argName)}>
                            Remove it
                          </button>
                        )}
                      </div>
                    )}
                  </div>
                </div>
              );
            })}
            {errors.get(`${at}.args`) && <div className="field-error">{errors.get(`${at}.args`)}</div>}
          </div>
        )}
      </div>
    </li>
  );
}
