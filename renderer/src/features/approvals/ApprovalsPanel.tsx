/**
 * Privileged calls from agents wait for a person's yes (docs/contracts.md, "Agents: MCP server and CLI"). This panel pops up
 * over whatever screen is open while any wait: the tool, its arguments and who asks, with the
 * time left before it counts as denied. It never takes focus from what the person is typing; it
 * announces itself to screen readers and its buttons are one Tab-stop group away (F6 jumps there,
 * Escape goes back; once answered, focus moves to the next request or back where it came from).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { focusOrigin, focusScreen, restoreFocus } from '../../components/focus.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.js';
import { decideApproval } from '../../api/operations.js';
import { keys, useApprovals } from '../../api/queries.js';
import { useToast } from '../../components/Toasts.js';
import type { Approval, ApprovalDecision } from '../../../../shared/types.js';
import { AnswerForm } from './AnswerForm.js';
import './ApprovalsPanel.css';

function timeLeft(expiresAt: string, now: number): string {
  const s = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function ApprovalCard({ approval, now }: { approval: Approval; now: number }) {
  const qc = useQueryClient();
  const toast = useToast();
  const decide = useMutation({
    mutationFn: ({ decision, content }: { decision: ApprovalDecision; content?: Record<string, unknown> }) =>
      decideApproval({ approvalID: approval.approvalID, decision, ...(content ? { content } : {}) }),
    onSuccess: (d) =>
      toast.show(
        d.decision === 'approve' ? 'success' : 'info',
        `${d.decision === 'approve' ? (approval.kind === 'answer' ? 'Answered' : 'Approved') : approval.kind === 'answer' ? 'Declined' : 'Denied'}: ${approval.tool.displayName || approval.tool.slug}`,
      ),
    onError: (e) => toast.show('error', `Could not answer: ${errorMessage(e)}`),
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.approvals }),
  });
  const t = approval.tool;
  const args = JSON.stringify(approval.args, null, 2);
  if (approval.kind === 'answer' && approval.question) {
    return (
      <article className="approval" aria-labelledby={`approval-${approval.approvalID}`} data-testid="approval">
        <header className="approval-head">
          <h2 className="approval-title" id={`approval-${approval.approvalID}`}>
            <strong>{t.displayName || t.slug}</strong> asks you
          </h2>
          <span className="approval-timer" title="Unanswered, it is declined" aria-label={`Time left: ${timeLeft(approval.expiresAt, now)}`}>
            {timeLeft(approval.expiresAt, now)}
          </span>
        </header>
        <p className="approval-meta">
          The MCP server behind{' '}
          <code>
            {t.bundleSlug}/{t.slug}
          </code>{' '}
          asks this during a call{' '}
          {approval.caller === 'app' ? (
            'from this app'
          ) : (
            <>
              by <strong>{approval.caller.replace(/^mcp:/, '')}</strong>
            </>
          )}
          .
        </p>
        <AnswerForm
          question={approval.question}
          pending={decide.isPending}
          onAnswer={(content) => decide.mutate({ decision: 'approve', content })}
          onDecline={() => decide.mutate({ decision: 'deny' })}
        />
      </article>
    );
  }
  return (
    <article className="approval" aria-labelledby={`approval-${approval.approvalID}`} data-testid="approval">
      <header className="approval-head">
        <h2 className="approval-title" id={`approval-${approval.approvalID}`}>
          Run <strong>{t.displayName || t.slug}</strong>?
        </h2>
        <span className="approval-timer" title="Unanswered, it counts as denied" aria-label={`Time left: ${timeLeft(approval.expiresAt, now)}`}>
          {timeLeft(approval.expiresAt, now)}
        </span>
      </header>
      <p className="approval-meta">
        <code>
          {t.bundleSlug}/{t.slug}@{t.version}
        </code>{' '}
        is privileged. Asked by <strong>{approval.caller.replace(/^mcp:/, '')}</strong>
        {approval.caller.startsWith('mcp:') ? ' (an agent over MCP)' : ''}.
      </p>
      <details className="approval-args" open={args.length < 400}>
        <summary>Arguments</summary>
        <pre>{args}</pre>
      </details>
      <div className="approval-actions">
        <button type="button" className="btn" onClick={() => decide.mutate({ decision: 'deny' })} disabled={decide.isPending} data-testid="approval-deny">
          Deny
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => decide.mutate({ decision: 'approve' })}
          disabled={decide.isPending}
          data-testid="approval-approve"
        >
          Approve and run
        </button>
      </div>
    </article>
  );
}

export function ApprovalsPanel() {
  const approvals = useApprovals();
  const [now, setNow] = useState(() => Date.now());
  const regionRef = useRef<HTMLElement>(null);
  const items = (approvals.data ?? []).filter((a) => Date.parse(a.expiresAt) > now);
  /** Where focus was before F6 took it into the panel. */
  const returnTo = useRef<Element | null>(null);
  const focusInside = useRef(false);
  const leave = () => {
    focusInside.current = false;
    if (!restoreFocus(returnTo.current)) focusScreen();
    returnTo.current = null;
  };

  // An answered request leaves the panel: focus goes on to the next one, or back where it came from.
  const ids = items.map((a) => a.approvalID).join(' ');
  useLayoutEffect(() => {
    if (!focusInside.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const next = regionRef.current?.querySelector<HTMLElement>('[data-testid="approval-deny"]');
    if (next) next.focus();
    else leave();
  }, [ids]);

  useEffect(() => {
    if (!items.length) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [items.length]);

  // F6 moves focus into the panel (and back out is Tab/Escape to the page), as in desktop apps.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F6' && items.length) {
        e.preventDefault();
        if (!regionRef.current?.contains(document.activeElement)) returnTo.current = focusOrigin();
        regionRef.current?.querySelector<HTMLElement>('[data-testid="approval-deny"]')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items.length]);

  if (!items.length) return null;
  return (
    <section
      className="approvals"
      ref={regionRef}
      aria-label="Approvals"
      aria-live="assertive"
      data-testid="approvals-panel"
      onFocus={() => (focusInside.current = true)}
      onBlur={(e) => {
        // Focus that moved to another element has left; focus that fell to <body> (a button
        // disabled while answering) is still ours to put somewhere.
        if (e.relatedTarget && !e.currentTarget.contains(e.relatedTarget)) focusInside.current = false;
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          leave();
        }
      }}
    >
      <div className="approvals-title">
        {items.length === 1
          ? items[0]!.kind === 'answer'
            ? 'An MCP server asks you something'
            : 'An agent asks to run a privileged tool'
          : `${items.length} requests wait for you`}
        <span className="muted"> · F6 to answer</span>
      </div>
      {items.map((a) => (
        <ApprovalCard key={a.approvalID} approval={a} now={now} />
      ))}
    </section>
  );
}
