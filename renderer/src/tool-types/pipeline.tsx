/**
 * The editor module of `pipeline` tools: steps built from existing tools (picked by search),
 * each argument mapped to a template with autocomplete of `${input.…}` and earlier
 * `${steps.<id>.value…}`, checked as you type with the rules the core applies at save
 * (shared/tool-types/pipeline-templates.ts); steps reordered and removed; the output template and the timeout.
 */
import { useQueries } from '@tanstack/react-query';
import { getTool } from '../api/operations.js';
import { keys, useBundles } from '../api/queries.js';
import { Badge } from '../components/States.js';
import { SAFETY_LABEL, SAFETY_TONE } from '../lib/format.js';
import { Field } from '../components/Field.js';
import { TemplateInput } from '../features/tools/editor/TemplateInput.js';
import { StepCard } from './pipeline/StepCard.js';
import { ToolPicker } from './pipeline/ToolPicker.js';
import { SAFETY_LEVELS, schemaPropertyNames } from '../../../shared/tool-types/pipeline-templates.js';
import { PIPELINE_DEFAULT_TIMEOUT_SECONDS, PIPELINE_MAX_STEPS, PIPELINE_MAX_TIMEOUT_SECONDS } from '../../../shared/tool-types/constants.js';
import type { Safety } from '../../../shared/schemas.js';
import type { ToolView } from '../../../shared/types.js';
import {
  checkPipeline,
  emptyPipeline,
  newStepKey,
  pipelineFromImpl,
  pipelineRules,
  pipelineToImpl,
  placeholderSuggestions,
  stepIDFor,
  unlessShown,
  wantsJson,
  type PipelineDraft,
  type StepArgDraft,
  type StepDraft,
} from './pipeline/draft.js';
import type { EditorTypeModule, ImplEditorProps } from './editor-type.js';
import { useState } from 'react';
import '../features/tools/pipelines.css';

/** A step for a picked tool: an ID from its slug, and its arguments mapped to the pipeline's arguments of the same name. */
export function stepForTool(tool: ToolView, ownBundleID: string, takenIDs: readonly string[], inputNames: readonly string[], key = newStepKey()): StepDraft {
  const props = (tool.argSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const args: Record<string, StepArgDraft> = {};
  for (const name of schemaPropertyNames(tool.argSchema)) {
    if (inputNames.includes(name)) args[name] = { text: `\${input.${name}}`, json: wantsJson(props[name]) };
  }
  return {
    key,
    id: stepIDFor(tool.slug, takenIDs),
    tool: { ...(tool.bundleID === ownBundleID ? {} : { bundleID: tool.bundleID }), slug: tool.slug, version: tool.version },
    args,
  };
}

function PipelineImplEditor({ value, onChange, ctx, errors, readOnly, owner }: ImplEditorProps<PipelineDraft>) {
  const [adding, setAdding] = useState(false);
  const bundles = useBundles();
  const ownBundleID = owner?.bundleID ?? '';
  const refs = value.steps.map((s) =>
    s.tool ? { bundleID: (s.tool.bundleID ?? ownBundleID).toLowerCase(), slug: s.tool.slug, version: s.tool.version } : null,
  );
  const tools = useQueries({
    queries: refs.map((ref) => ({
      queryKey: ref ? keys.tool(ref) : ['tools', 'one', 'none'],
      queryFn: () => getTool(ref!),
      enabled: ref !== null && ref.slug !== '' && ref.version !== '',
      retry: false,
    })),
  });
  const stepIDs = value.steps.map((s) => s.id);
  const infos = value.steps.map((s, i) => ({ id: s.id, tool: tools[i]?.data }));
  const bundleSlug = (bundleID: string) => bundles.data?.find((b) => b.bundleID === bundleID)?.slug;

  const setSteps = (steps: StepDraft[]) => onChange({ steps });
  const patchStep = (i: number, patch: Partial<StepDraft>) => setSteps(value.steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...value.steps];
    const [s] = next.splice(i, 1);
    next.splice(i + by, 0, s!);
    setSteps(next);
  };

  // How dangerous a run is: the most dangerous step's (what the core enforces at save and at run time).
  let worst: { safety: Safety; step?: string } = { safety: 'readOnly' };
  tools.forEach((q, i) => {
    const s = q.data ? (q.data.effectiveSafety ?? q.data.safety) : undefined;
    if (s && SAFETY_LEVELS.indexOf(s) > SAFETY_LEVELS.indexOf(worst.safety)) worst = { safety: s, step: value.steps[i]?.id };
  });

  return (
    <fieldset className="fieldset pipeline-editor" disabled={readOnly} data-testid="pipeline-editor">
      <legend>Pipeline</legend>
      <p className="field-hint">
        Each step calls a tool through every gate (switches, rate limits, argument checks). Arguments read the pipeline&apos;s own arguments as{' '}
        <code>{'${input.name}'}</code> and earlier steps as <code>{'${steps.<id>.value…}'}</code>; type <kbd>$</kbd>
        <kbd>{'{'}</kbd> for suggestions. A placeholder alone keeps its type; inside text it becomes text.
      </p>
      {value.steps.length > 0 && (
        <div className="pipeline-safety" data-testid="pipeline-safety">
          Runs as <Badge tone={SAFETY_TONE[worst.safety]}>{SAFETY_LABEL[worst.safety]}</Badge>
          {worst.step && worst.safety !== 'readOnly' ? (
            <span className="muted">
              {' '}
              because step “{worst.step}” is {SAFETY_LABEL[worst.safety]}
              {worst.safety === 'privileged' ? '; every run asks for confirmation first.' : '.'}
            </span>
          ) : (
            <span className="muted"> (its most dangerous step decides).</span>
          )}
        </div>
      )}
      <ol className="step-list" aria-label="Steps">
        {value.steps.map((step, i) => {
          const q = tools[i];
          return (
            <StepCard
              key={step.key}
              step={step}
              index={i}
              count={value.steps.length}
              tool={{ data: q?.data, error: q?.error ?? undefined, pending: !!q?.isFetching && !q.data }}
              bundleSlug={step.tool ? bundleSlug((step.tool.bundleID ?? ownBundleID).toLowerCase()) : undefined}
              ownBundleID={ownBundleID}
              excludeToolID={owner?.toolID}
              inputNames={ctx.args}
              stepIDs={stepIDs}
              suggestions={placeholderSuggestions(ctx.args, infos, i)}
              ctx={ctx}
              errors={errors}
              readOnly={readOnly}
              onChange={(patch) => patchStep(i, patch)}
              onPickTool={(tool) => {
                const fresh = stepForTool(
                  tool,
                  ownBundleID,
                  stepIDs.filter((_, j) => j !== i),
                  ctx.args,
                  step.key,
                );
                // Keep what was mapped for arguments the new tool also has, and an ID that was typed.
                const kept = Object.fromEntries(Object.entries(step.args).filter(([n]) => schemaPropertyNames(tool.argSchema).includes(n)));
                patchStep(i, { tool: fresh.tool, args: { ...fresh.args, ...kept }, id: step.id && step.tool ? step.id : fresh.id });
              }}
              onMove={(by) => move(i, by)}
              onRemove={() => setSteps(value.steps.filter((_, j) => j !== i))}
            />
          );
        })}
      </ol>
      {errors.get('impl.steps') && <div className="field-error">{errors.get('impl.steps')}</div>}
      {!readOnly &&
        value.steps.length < PIPELINE_MAX_STEPS &&
        (adding ? (
          <ToolPicker
            ownBundleID={ownBundleID}
            excludeToolID={owner?.toolID}
            label="Tool for the new step"
            onPick={(tool) => {
              setAdding(false);
              setSteps([...value.steps, stepForTool(tool, ownBundleID, stepIDs, ctx.args)]);
            }}
            onCancel={() => setAdding(false)}
            testId="add-step-picker"
          />
        ) : (
          <button type="button" className="btn add-step" onClick={() => setAdding(true)} data-testid="add-step">
            + Add a step
          </button>
        ))}

      <div className="field pipeline-output">
        <label className="field-label" htmlFor="pipeline-output">
          Output
        </label>
        <TemplateInput
          id="pipeline-output"
          label="Output template"
          multiline
          rows={Math.min(10, Math.max(2, value.output.split('\n').length))}
          value={value.output}
          onChange={(output) => onChange({ output })}
          ctx={ctx}
          rules={pipelineRules(ctx.args, stepIDs)}
          suggestions={placeholderSuggestions(ctx.args, infos)}
          readOnly={readOnly}
          serverError={unlessShown(errors.get('impl.output'), pipelineRules(ctx.args, stepIDs), value.output)}
          placeholder={value.steps.length ? `empty: the value of the last step (\${steps.${value.steps[value.steps.length - 1]!.id || '…'}.value})` : ''}
          testId="pipeline-output"
        />
        <div className="field-hint">
          Empty: the result is the last step&apos;s value. JSON such as <code>{'{"temp": "${steps.weather.value.temp}"}'}</code> builds an object.
        </div>
      </div>
      <Field
        label="Timeout (s)"
        className="w-mid"
        hint={`For the whole run; default ${PIPELINE_DEFAULT_TIMEOUT_SECONDS}, at most ${PIPELINE_MAX_TIMEOUT_SECONDS}.`}
        error={errors.get('impl.timeoutSeconds')}
      >
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            className="input"
            inputMode="decimal"
            value={value.timeoutSeconds}
            placeholder={String(PIPELINE_DEFAULT_TIMEOUT_SECONDS)}
            onChange={(e) => onChange({ timeoutSeconds: e.target.value })}
            data-testid="pipeline-timeout"
          />
        )}
      </Field>
    </fieldset>
  );
}

/** Fields the server may name: per step (up to the most steps a pipeline has), the output and the timeout. */
const STEP_FIELDS = Array.from({ length: PIPELINE_MAX_STEPS }, (_, i) => [`impl.steps[${i}].id`, `impl.steps[${i}].tool`, `impl.steps[${i}].args`]).flat();

export const pipelineEditorType: EditorTypeModule<'pipeline', PipelineDraft> = {
  type: 'pipeline',
  label: 'Pipeline',
  safetyAutoLabel: 'Automatic (its most dangerous step)',
  empty: emptyPipeline,
  fromImpl: pipelineFromImpl,
  toImpl: pipelineToImpl,
  check: checkPipeline,
  fields: ['impl.steps', ...STEP_FIELDS, 'impl.output', 'impl.timeoutSeconds'],
  Editor: PipelineImplEditor,
};
