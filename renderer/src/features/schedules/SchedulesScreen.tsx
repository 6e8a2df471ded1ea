/**
 * Every schedule in one table: the tool, the pattern in words, its zone, the next run, the last
 * run with its status, a switch and Run now; each row opens to show the latest output. Live: runs
 * made by any process arrive as schedule.changed events.
 */
import { Fragment, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiCallError, errorMessage } from '../../api/errors.js';
import { patchSchedule, runSchedule } from '../../api/operations.js';
import { keys, toolRefOf, useAllTools, useBundles, useScheduleOutput, useSchedules } from '../../api/queries.js';
import { useNav } from '../../lib/nav.js';
import { absoluteTime, duration, relativeTime } from '../../lib/format.js';
import { useToast } from '../../components/Toasts.js';
import { useConfirm } from '../../components/Dialog.js';
import { Badge, Empty, ErrorState, Loading } from '../../components/States.js';
import { Switch } from '../../components/Switch.js';
import { JsonTree } from '../../components/JsonTree.js';
import { formatFireTime } from '../../../../shared/schedules/cron.js';
import { describeCadence } from '../../../../shared/schedules/cadence.js';
import type { ScheduleView, ToolView } from '../../../../shared/types.js';
import { RUN_STATUS_TONE } from './ScheduleSettings.js';
import './SchedulesScreen.css';

/** The cadence in words, as a sentence: the cron's meaning, "Once, Tue 1 Jul 09:00", "Every 15 minutes". */
function cadenceText(s: ScheduleView): string {
  if (s.at !== undefined) return `Once, ${formatFireTime(Date.parse(s.at), s.timezone)}`;
  const words = describeCadence({ ...s, cron: s.cron ?? undefined });
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function LatestOutput({ scheduleID }: { scheduleID: string }) {
  const output = useScheduleOutput(scheduleID);
  if (output.isPending) return <Loading label="Loading the latest output…" />;
  if (output.isError) return <ErrorState error={output.error} retry={() => void output.refetch()} />;
  if (!output.data) return <p className="muted">It has not run yet: its first output appears here.</p>;
  const o = output.data;
  return (
    <div className="schedule-output" data-testid={`output-${scheduleID}`}>
      <p className="muted">
        <Badge tone={RUN_STATUS_TONE[o.status] ?? 'neutral'}>{o.status}</Badge> ran <span title={absoluteTime(o.startedAt)}>{relativeTime(o.startedAt)}</span>{' '}
        {o.fireAt ? 'on schedule' : 'by hand'}, in {duration(o.durationMs)}. Agents read it as the MCP resource{' '}
        <code className="resource-uri">toolwright://schedules/{scheduleID}/latest</code>
      </p>
      {o.error ? <p className="field-error">{o.error.message}</p> : <JsonTree value={o.value} />}
    </div>
  );
}

export function SchedulesScreen() {
  const schedules = useSchedules();
  const tools = useAllTools();
  const bundles = useBundles('exclude');
  const { go } = useNav();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const [open, setOpen] = useState<string | null>(null);

  const toolByID = useMemo(() => new Map((tools.data ?? []).map((t) => [t.toolID, t])), [tools.data]);
  const bundleName = (id: string) => {
    const b = bundles.data?.find((x) => x.bundleID === id);
    return b ? b.displayName || b.slug : '';
  };

  const refresh = () => void qc.invalidateQueries({ queryKey: keys.schedules });
  const toggle = useMutation({
    mutationFn: (v: { s: ScheduleView; isEnabled: boolean }) => patchSchedule({ scheduleID: v.s.scheduleID, patch: { isEnabled: v.isEnabled } }),
    onMutate: ({ s, isEnabled }) => {
      qc.setQueryData<ScheduleView[]>(keys.scheduleList(null), (list) => list?.map((x) => (x.scheduleID === s.scheduleID ? { ...x, isEnabled } : x)));
    },
    onError: (e, { isEnabled }) => toast.show('error', `Could not switch the schedule ${isEnabled ? 'on' : 'off'}: ${errorMessage(e)}`),
    onSettled: () => {
      refresh();
      void qc.invalidateQueries({ queryKey: keys.tools });
    },
  });
  const run = useMutation({
    mutationFn: (v: { s: ScheduleView; confirm?: boolean }) => runSchedule({ scheduleID: v.s.scheduleID, ...(v.confirm ? { confirm: true } : {}) }),
    onSuccess: (r, { s }) => {
      const name = toolByID.get(s.toolID)?.displayName || 'The tool';
      if (r.ok) toast.show('success', `${name} ran in ${duration(r.durationMs)}`);
      else toast.show('error', `${name} failed: ${r.error?.message ?? 'unknown error'}`);
      setOpen(s.scheduleID);
    },
    onError: async (e, { s, confirm: confirmed }) => {
      if (e instanceof ApiCallError && e.code === 'CONFIRMATION_REQUIRED' && !confirmed) {
        const tool = toolByID.get(s.toolID);
        const ok = await confirm({
          title: `Run ${tool?.displayName || tool?.slug || 'this tool'} now?`,
          message: 'This tool is privileged: it can change things outside Toolwright. Run it now with the schedule’s arguments?',
          confirmLabel: 'Run it',
          danger: true,
        });
        if (ok) run.mutate({ s, confirm: true });
        return;
      }
      toast.show('error', `Did not run: ${errorMessage(e)}`);
    },
    onSettled: () => {
      refresh();
      void qc.invalidateQueries({ queryKey: ['tools', 'history'] });
    },
  });

  const rows = useMemo(() => {
    const list = [...(schedules.data ?? [])];
    // Soonest first; switched-off ones at the end.
    return list.sort((a, b) => (a.nextRunAt ?? '~').localeCompare(b.nextRunAt ?? '~') || a.scheduleID.localeCompare(b.scheduleID));
  }, [schedules.data]);

  const toolCell = (s: ScheduleView, t: ToolView | undefined) =>
    t ? (
      <>
        <button type="button" className="link-btn schedule-tool" onClick={() => go({ name: 'tool', ref: toolRefOf(t) })}>
          {t.displayName || t.slug}
        </button>
        <div className="muted small">
          {bundleName(t.bundleID)} ·{' '}
          <span className="mono">
            {t.slug}@{t.version}
          </span>
          {!t.isEnabled && (
            <>
              {' '}
              · <Badge tone="neutral">tool off</Badge>
            </>
          )}
          {t.safety === 'privileged' && (
            <>
              {' '}
              · <Badge tone="danger">privileged</Badge>
            </>
          )}
        </div>
      </>
    ) : (
      <span className="mono muted">{s.toolID}</span>
    );

  return (
    <section className="page" aria-labelledby="schedules-title" data-testid="schedules-screen">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="schedules-title">
            Schedules
          </h1>
        </div>
        <p className="page-sub">
          Tools that run by themselves (on a cron pattern, once, or at an interval) while Toolwright runs (the app, the headless host or an agent’s MCP server:
          one of them schedules). Each run passes the same checks as any other and lands in the tool’s history; its latest output is what agents read and
          subscribe to.
        </p>
      </header>
      {schedules.isPending || tools.isPending ? (
        <Loading label="Loading schedules…" />
      ) : schedules.isError ? (
        <ErrorState error={schedules.error} retry={() => void schedules.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title="No schedules yet">
          <p>
            Open a tool, choose <strong>Edit</strong>, and add one under <strong>Schedules</strong>: a cron pattern such as <code>0 9 * * 1-5</code> (09:00 on
            weekdays), a time zone and the arguments to run it with.
          </p>
          <button type="button" className="btn" onClick={() => go({ name: 'tools', bundleID: null })}>
            Go to the tools
          </button>
        </Empty>
      ) : (
        <div className="table-scroll">
          <table className="data-table schedules-table" data-testid="schedules-table">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Runs</th>
                <th scope="col" className="col-zone">
                  Time zone
                </th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
                <th scope="col">
                  <span className="sr-only">On</span>
                </th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => {
                const t = toolByID.get(s.toolID);
                const name = s.name || t?.displayName || t?.slug || 'schedule';
                const expanded = open === s.scheduleID;
                const running = run.isPending && run.variables?.s.scheduleID === s.scheduleID;
                return (
                  <Fragment key={s.scheduleID}>
                    <tr className={s.isEnabled ? '' : 'is-off'} data-testid={`schedule-row-${s.scheduleID}`}>
                      <td>
                        {s.name && (
                          <div className="schedule-name" data-testid="schedule-name">
                            {s.name}
                          </div>
                        )}
                        {toolCell(s, t)}
                      </td>
                      <td>
                        <div>{cadenceText(s)}</div>
                        <div className="muted small">
                          {s.cron && (
                            <>
                              <span className="mono">{s.cron}</span>
                              <span className="zone-inline"> · {s.timezone.replace(/_/g, ' ')}</span>
                            </>
                          )}
                        </div>
                      </td>
                      <td className="nowrap col-zone">{s.timezone.replace(/_/g, ' ')}</td>
                      <td className="nowrap" data-testid="next-run">
                        {s.nextRunAt ? (
                          <>
                            <div>{formatFireTime(Date.parse(s.nextRunAt), s.timezone)}</div>
                            <div className="muted small" title={absoluteTime(s.nextRunAt)}>
                              {relativeTime(s.nextRunAt)}
                            </div>
                          </>
                        ) : (
                          <span className="muted">—</span>
                        )}
                      </td>
                      <td className="nowrap" data-testid="last-run">
                        {s.lastRun ? (
                          <>
                            <Badge tone={RUN_STATUS_TONE[s.lastRun.status] ?? 'neutral'}>{s.lastRun.status}</Badge>
                            <div className="muted small" title={absoluteTime(s.lastRun.startedAt)}>
                              {relativeTime(s.lastRun.startedAt)}
                            </div>
                          </>
                        ) : (
                          <span className="muted">never</span>
                        )}
                      </td>
                      <td>
                        <Switch
                          checked={s.isEnabled}
                          label={`Schedule of ${name} on`}
                          onChange={(isEnabled) => toggle.mutate({ s, isEnabled })}
                          testId={`schedule-switch-${s.scheduleID}`}
                        />
                      </td>
                      <td className="actions">
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => run.mutate({ s })}
                          disabled={running}
                          data-testid={`run-now-${s.scheduleID}`}
                        >
                          {running ? 'Running…' : 'Run now'}
                        </button>
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-expanded={expanded}
                          aria-controls={`out-${s.scheduleID}`}
                          onClick={() => setOpen(expanded ? null : s.scheduleID)}
                          data-testid={`show-output-${s.scheduleID}`}
                        >
                          Output
                        </button>
                      </td>
                    </tr>
                    {expanded && (
                      <tr className="schedule-output-row" id={`out-${s.scheduleID}`}>
                        <td colSpan={7}>
                          <LatestOutput scheduleID={s.scheduleID} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
