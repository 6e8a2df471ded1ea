/**
 * The tool editor's Schedules section: each schedule's cadence (a cron pattern with its meaning and
 * next runs as you type, one time, or an interval), its time zone (searchable), its arguments through the tester's schema form,
 * its switch, and for a privileged tool the explicit approval to run it unattended. Saved with
 * the tool (tool.json `schedules`).
 */
import { useMemo } from 'react';
import Form from '@rjsf/core';
import type { Experimental_DefaultFormStateBehavior, RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FieldIssue } from '../../../../shared/errors.js';
import type { ScheduleView } from '../../../../shared/types.js';
import { cronIssue, describeCron, formatFireTime, machineTimeZone, nextFires, timeZoneIssue } from '../../../../shared/schedules/cron.js';
import { cspSafeValidator } from '../../lib/schemaValidator.js';
import { Switch } from '../../components/Switch.js';
import { Badge } from '../../components/States.js';
import { relativeTime, absoluteTime } from '../../lib/format.js';
import { useNav } from '../../lib/nav.js';
import { Field } from '../../components/Field.js';
import { TimeZonePicker } from './TimeZonePicker.js';
import { newScheduleDraft, type ScheduleDraft } from './scheduleDraft.js';
import { describeInterval } from '../../../../shared/schedules/cadence.js';
import { MAX_SCHEDULE_NAME } from '../../../../shared/schedules/limits.js';
import './ScheduleSettings.css';
import '../../components/rjsf.css';

/** An RFC 3339 time as a datetime-local input shows it (this computer's wall clock). */
function localInputValue(at: string): string {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) return '';
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

const PRESETS: [string, string][] = [
  ['Every hour', '0 * * * *'],
  ['Every day at 09:00', '0 9 * * *'],
  ['Weekdays at 09:00', '0 9 * * 1-5'],
  ['Mondays at 08:00', '0 8 * * 1'],
  ['Every 15 minutes', '*/15 * * * *'],
];

const FORM_UI: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

/**
 * A saved schedule's form shows its arguments as stored: the form would otherwise fill in the
 * schema's defaults (and consts, and minItems) and the next save would write them into tool.json
 * on the person's behalf. A schedule added now gets them, in plain sight, before its first save.
 */
const AS_WRITTEN: Experimental_DefaultFormStateBehavior = {
  emptyObjectFields: 'skipDefaults',
  arrayMinItems: { populate: 'never' },
  constAsDefaults: 'never',
};

export const RUN_STATUS_TONE: Record<string, 'ok' | 'warn' | 'danger' | 'neutral' | 'info'> = {
  ok: 'ok',
  running: 'info',
  error: 'danger',
  refused: 'warn',
  skipped: 'neutral',
  cancelled: 'neutral',
};

function formSchemaOf(argSchema: unknown): RJSFSchema | null {
  if (argSchema === true) return { type: 'object' };
  if (typeof argSchema !== 'object' || argSchema === null) return null;
  return argSchema as RJSFSchema;
}

function hasInputs(schema: RJSFSchema): boolean {
  return Object.keys(schema.properties ?? {}).length > 0 || !!schema.oneOf || !!schema.anyOf || !!schema.allOf || !!schema.$ref;
}

/** The pattern in words and the next runs, in the schedule's zone, as the person types. */
function CronPreview({ cron, zone }: { cron: string; zone: string }) {
  const issue = cronIssue(cron);
  const zoneOk = !timeZoneIssue(zone);
  const runs = useMemo(() => (issue || !zoneOk ? [] : nextFires(cron, zone, Date.now(), 4)), [cron, zone, issue, zoneOk]);
  if (issue) return null;
  return (
    <div className="cron-preview" data-testid="cron-preview">
      <div className="cron-words">
        {describeCron(cron)} <span className="muted">({zone.replace(/_/g, ' ')})</span>
      </div>
      {runs.length > 0 && <div className="cron-next muted">Next: {runs.map((r) => formatFireTime(r, zone)).join(' · ')}</div>}
    </div>
  );
}

function ScheduleCard(props: {
  index: number;
  draft: ScheduleDraft;
  onChange(patch: Partial<ScheduleDraft>): void;
  onRemove(): void;
  argSchema: unknown;
  privileged: boolean;
  readOnly: boolean;
  issues: Map<string, string>;
  lastRun?: ScheduleView['lastRun'];
}) {
  const { index, draft, onChange, argSchema, privileged, readOnly, issues } = props;
  const field = `schedules[${index}]`;
  const zone = draft.timezone || machineTimeZone();
  const schema = useMemo(() => formSchemaOf(argSchema), [argSchema]);
  const cronError = issues.get(`${field}.cron`) ?? (draft.kind === 'cron' ? cronIssue(draft.cron) : undefined);
  const zoneError = issues.get(`${field}.timezone`) ?? (draft.timezone ? timeZoneIssue(draft.timezone) : undefined);
  const argsError = [...issues].filter(([f]) => f.startsWith(`${field}.args`)).map(([, m]) => m)[0];
  const approvalError = issues.get(`${field}.approval`);
  const label = `Schedule ${index + 1}`;
  const { go } = useNav();

  return (
    <li className={`schedule-card${draft.isEnabled ? '' : ' is-off'}`} data-testid={`schedule-${index}`} aria-label={label}>
      <div className="schedule-card-head">
        <Switch
          checked={draft.isEnabled}
          label={`${label} on`}
          showLabel
          text={draft.isEnabled ? 'On' : 'Off'}
          disabled={readOnly}
          onChange={(isEnabled) => onChange({ isEnabled })}
          testId={`schedule-${index}-switch`}
        />
        <span className="schedule-card-title">{label}</span>
        {props.lastRun && (
          <span className="schedule-last muted">
            Last run <Badge tone={RUN_STATUS_TONE[props.lastRun.status] ?? 'neutral'}>{props.lastRun.status}</Badge>{' '}
            <span title={absoluteTime(props.lastRun.startedAt)}>{relativeTime(props.lastRun.startedAt)}</span>
            {' · '}
            <button type="button" className="link-btn" onClick={() => go({ name: 'schedules' })}>
              Schedules
            </button>
          </span>
        )}
        <div className="spacer" />
        {!readOnly && (
          <button type="button" className="btn btn-small btn-danger-quiet" onClick={props.onRemove} data-testid={`schedule-${index}-remove`}>
            Remove
          </button>
        )}
      </div>
      <div className="row wrap">
        <Field
          label="Name"
          className="grow"
          hint="optional: what it is for, shown on the Schedules screen and to agents"
          error={issues.get(`${field}.name`) ?? undefined}
        >
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              className="input"
              value={draft.name}
              maxLength={MAX_SCHEDULE_NAME}
              placeholder="e.g. morning weather for Lisbon"
              disabled={readOnly}
              onChange={(e) => onChange({ name: e.target.value })}
              data-testid={`schedule-${index}-name`}
            />
          )}
        </Field>
      </div>
      <div className="row wrap">
        <Field label="Runs">
          {(id, d) => (
            <select
              id={id}
              aria-describedby={d}
              className="input"
              value={draft.kind}
              disabled={readOnly}
              onChange={(e) => onChange({ kind: e.target.value as ScheduleDraft['kind'] })}
              data-testid={`schedule-${index}-kind`}
            >
              <option value="cron">On a cron pattern</option>
              <option value="once">Once</option>
              <option value="interval">At an interval</option>
            </select>
          )}
        </Field>
        {draft.kind === 'once' && (
          <Field label="At" className="grow" hint="this computer's time; it must be in the future when you save" error={issues.get(`${field}.at`) ?? undefined}>
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                type="datetime-local"
                className="input"
                value={localInputValue(draft.at)}
                disabled={readOnly}
                onChange={(e) => onChange({ at: e.target.value ? new Date(e.target.value).toISOString() : '' })}
                data-testid={`schedule-${index}-at`}
              />
            )}
          </Field>
        )}
        {draft.kind === 'interval' && (
          <Field
            label="Every (seconds)"
            className="grow"
            hint={describeInterval(draft.everySeconds || 1)}
            error={issues.get(`${field}.everySeconds`) ?? undefined}
          >
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                type="number"
                min={1}
                step={1}
                className="input"
                value={draft.everySeconds}
                disabled={readOnly}
                onChange={(e) => onChange({ everySeconds: Number(e.target.value) })}
                data-testid={`schedule-${index}-every`}
              />
            )}
          </Field>
        )}
      </div>
      {draft.kind === 'cron' && (
        <>
          <div className="row wrap">
            <Field
              label="Cron pattern"
              className="grow"
              hint={
                <>
                  minute hour day-of-month month day-of-week, e.g. <code>0 9 * * 1-5</code>
                </>
              }
              error={cronError}
            >
              {(id, d) => (
                <input
                  id={id}
                  aria-describedby={d}
                  aria-invalid={!!cronError || undefined}
                  className="input mono"
                  value={draft.cron}
                  spellCheck={false}
                  disabled={readOnly}
                  onChange={(e) => onChange({ cron: e.target.value })}
                  data-testid={`schedule-${index}-cron`}
                />
              )}
            </Field>
            <Field label="Time zone" className="grow" error={zoneError}>
              {(id, d) => (
                <TimeZonePicker
                  id={id}
                  describedBy={d}
                  value={draft.timezone}
                  disabled={readOnly}
                  onChange={(timezone) => onChange({ timezone })}
                  testId={`schedule-${index}-zone`}
                />
              )}
            </Field>
          </div>
          {!readOnly && (
            <div className="cron-presets" role="group" aria-label={`${label}: common patterns`}>
              {PRESETS.map(([name, cron]) => (
                <button key={cron} type="button" className={`preset${draft.cron.trim() === cron ? ' is-on' : ''}`} onClick={() => onChange({ cron })}>
                  {name}
                </button>
              ))}
            </div>
          )}
          <CronPreview cron={draft.cron} zone={zone} />
        </>
      )}

      <div className={`field${argsError ? ' has-error' : ''}`}>
        <span className="field-label">Arguments</span>
        {schema === null ? (
          <p className="field-warning">Fix the argument schema above to fill in the arguments.</p>
        ) : hasInputs(schema) ? (
          <div className="schedule-args" data-testid={`schedule-${index}-args`}>
            <Form
              tagName="div"
              schema={schema}
              uiSchema={FORM_UI}
              validator={cspSafeValidator}
              formData={draft.args}
              {...(draft.scheduleID ? { experimental_defaultFormStateBehavior: AS_WRITTEN } : {})}
              onChange={(e) => onChange({ args: (e.formData ?? {}) as Record<string, unknown> })}
              liveValidate={draft.isEnabled}
              showErrorList={false}
              noHtml5Validate
              disabled={readOnly}
              className="rjsf"
              idPrefix={`schedule${index}`}
            />
          </div>
        ) : (
          <p className="muted">This tool takes no arguments.</p>
        )}
        {argsError && <div className="field-error">{argsError}</div>}
      </div>

      {(privileged || draft.approved || approvalError) && (
        <div className={`approval${approvalError ? ' has-error' : ''}`}>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.approved}
              disabled={readOnly}
              onChange={(e) => onChange({ approved: e.target.checked, ...(e.target.checked ? {} : { approval: undefined }) })}
              data-testid={`schedule-${index}-approve`}
            />{' '}
            I approve running this privileged tool on this schedule, with nobody confirming each run
          </label>
          {draft.approval && (
            <div className="field-hint">
              Approved {relativeTime(draft.approval.approvedAt)}
              {draft.approval.approvedBy ? ` by ${draft.approval.approvedBy}` : ''}.
            </div>
          )}
          {approvalError && <div className="field-error">{approvalError}</div>}
        </div>
      )}
    </li>
  );
}

export function ScheduleSettings(props: {
  schedules: ScheduleDraft[];
  onChange(schedules: ScheduleDraft[]): void;
  argSchema: unknown;
  privileged: boolean;
  readOnly: boolean;
  /** Local issues (after a save attempt) and the server's, keyed `schedules[i]…`. */
  issues: Map<string, string>;
  serverIssues: FieldIssue[];
  runs?: ScheduleView[];
}) {
  const { schedules, onChange } = props;
  const issues = useMemo(() => {
    const m = new Map(props.issues);
    for (const i of props.serverIssues) if (i.field.startsWith('schedules')) m.set(i.field, m.has(i.field) ? `${m.get(i.field)}; ${i.message}` : i.message);
    return m;
  }, [props.issues, props.serverIssues]);
  const update = (i: number, patch: Partial<ScheduleDraft>) => onChange(schedules.map((s, j) => (j === i ? { ...s, ...patch } : s)));

  return (
    <fieldset className="fieldset schedules" disabled={props.readOnly} data-testid="schedules-section">
      <legend>Schedules</legend>
      {schedules.length === 0 ? (
        <p className="muted">
          No schedules. A schedule runs this tool by itself on a cron pattern, with fixed arguments, while Toolwright runs; its latest output is what agents
          read as the resource <code>toolwright://schedules/…/latest</code>.
        </p>
      ) : (
        <ol className="schedule-list">
          {schedules.map((s, i) => (
            <ScheduleCard
              key={s.key}
              index={i}
              draft={s}
              onChange={(patch) => update(i, patch)}
              onRemove={() => onChange(schedules.filter((_, j) => j !== i))}
              argSchema={props.argSchema}
              privileged={props.privileged}
              readOnly={props.readOnly}
              issues={issues}
              lastRun={s.scheduleID ? props.runs?.find((r) => r.scheduleID === s.scheduleID)?.lastRun : undefined}
            />
          ))}
        </ol>
      )}
      {!props.readOnly && (
        <button
          type="button"
          className="btn"
          onClick={() => {
            onChange([...schedules, newScheduleDraft()]);
            requestAnimationFrame(() => document.querySelector<HTMLInputElement>(`[data-testid="schedule-${schedules.length}-cron"]`)?.focus());
          }}
          data-testid="add-schedule"
        >
          + Add a schedule
        </button>
      )}
    </fieldset>
  );
}
