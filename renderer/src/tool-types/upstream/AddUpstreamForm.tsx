/**
 * The add-server dialog's form (AddUpstream.tsx opens it): the command line or URL, the
 * environment variables or headers, the connection test, the name, and the save that creates the
 * bundle and syncs it. Its own chunk: the first screen does not show it (docs/speed.md, issue 36).
 */
import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v7 as uuidv7 } from 'uuid';
import { TextField } from '../../components/Field.js';
import { useToast } from '../../components/Toasts.js';
import { useNav } from '../../lib/nav.js';
import { keys } from '../../api/queries.js';
import { probeServer, putBundle, setSecret, syncServer } from '../../api/operations.js';
import { errorMessage } from '../../api/errors.js';
import { checkSlug } from '../../../../shared/slug.js';
import { parseServerLine, sourceOf, suggestedSlug, type NameValueRow } from './commandLine.js';
import { NameValueRows, literalSecretRows } from './NameValueRows.js';
import { ProbeResult } from './ProbeResult.js';
import { EMPTY_OAUTH_CLIENT, OAuthClientFields, oauthOf, type OAuthClientDraft } from './OAuthClientFields.js';
import type { ServerProbe } from '../../../../shared/upstream.js';
import './AddUpstream.css';

export function AddUpstreamForm({ onDone }: { onDone(): void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const { go } = useNav();
  const [line, setLine] = useState('');
  const [rows, setRows] = useState<NameValueRow[]>([]);
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [displayName, setDisplayName] = useState('');
  const [tried, setTried] = useState(false);
  const [oauthDraft, setOAuthDraft] = useState<OAuthClientDraft>(EMPTY_OAUTH_CLIENT);
  const parsed = useMemo(() => parseServerLine(line), [line]);
  const source = sourceOf(parsed, rows);
  const http = parsed.ok && parsed.transport === 'http';
  const unsafe = literalSecretRows(rows);

  const probe = useMutation({
    mutationFn: () => probeServer({ source: source! }),
    onSuccess: (p: ServerProbe) => {
      if (!slugEdited) setSlug(suggestedSlug(parsed, p.server?.name));
      if (!displayName && p.server) setDisplayName(p.server.title || p.server.name);
    },
  });
  const shownSlug = slugEdited || slug ? slug : line.trim() ? suggestedSlug(parsed) : '';
  const slugCheck = checkSlug(shownSlug);
  const oauth = http ? oauthOf(oauthDraft, shownSlug) : undefined;
  const oauthError = oauth && 'error' in oauth ? oauth.error : undefined;

  const save = useMutation({
    mutationFn: async () => {
      const bundleID = uuidv7();
      const signIn = oauth && 'auth' in oauth ? oauth : undefined;
      if (signIn?.secret) {
        await setSecret(signIn.secret);
        void qc.invalidateQueries({ queryKey: keys.secrets });
      }
      const withAuth = signIn && source?.transport === 'http' ? { ...source, auth: signIn.auth } : source!;
      const { bundle } = await putBundle({
        bundleID,
        bundle: { slug: shownSlug.normalize('NFC'), displayName: displayName.trim() || shownSlug, isEnabled: true, source: withAuth },
      });
      try {
        const report = await syncServer({ bundleID });
        return { bundle, report, syncError: undefined };
      } catch (e) {
        return { bundle, report: undefined, syncError: errorMessage(e) };
      }
    },
    onSuccess: ({ bundle, report, syncError }) => {
      const name = bundle.displayName || bundle.slug;
      if (syncError) toast.show('error', `Added ${name}, but its first sync failed: ${syncError}. Fix the server, then choose Sync now.`);
      else
        toast.show('success', `Added ${name} with ${report!.added.length} tool${report!.added.length === 1 ? '' : 's'}, switched off until you switch them on`);
      void qc.invalidateQueries({ queryKey: keys.bundles });
      void qc.invalidateQueries({ queryKey: keys.tools });
      onDone();
      go({ name: 'tools', bundleID: bundle.bundleID });
    },
  });

  const lineError = tried || line.trim() ? (parsed.ok ? undefined : parsed.error) : undefined;
  const blocked = !parsed.ok || !source || unsafe.length > 0 || !!oauthError;

  // NAME=value at the start of a pasted line become rows, so every variable is in one place.
  const adoptAssignments = () => {
    if (!parsed.ok || parsed.transport !== 'stdio' || !Object.keys(parsed.env).length) return;
    setRows((r) => [...r.filter((x) => !(x.name in parsed.env)), ...Object.entries(parsed.env).map(([name, value]) => ({ name, value }))]);
    setLine([parsed.command, ...parsed.args].map(shellQuote).join(' '));
  };

  return (
    <form
      className="report add-server-form"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (blocked || !slugCheck.ok) return;
        save.mutate();
      }}
      noValidate
    >
      <h2 className="modal-title">Add an MCP server</h2>
      <p className="muted">
        Its tools become Toolwright tools: switched off until you switch them on, pinned to the definitions you see, and guarded like any other.
      </p>

      <div className="field">
        <label htmlFor="server-line" className="field-label">
          Command line or URL
        </label>
        <textarea
          id="server-line"
          className="input mono server-line"
          rows={2}
          spellCheck={false}
          placeholder="npx -y @modelcontextprotocol/server-memory   or   https://example.com/mcp"
          value={line}
          data-autofocus
          aria-invalid={!!lineError || undefined}
          aria-describedby="server-line-hint"
          onChange={(e) => {
            setLine(e.target.value);
            probe.reset();
          }}
          onBlur={adoptAssignments}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              adoptAssignments();
              if (!blocked) probe.mutate();
            }
          }}
          data-testid="server-line"
        />
        <div id="server-line-hint" className={lineError ? 'field-error' : 'field-hint'} data-testid="server-line-hint">
          {lineError ??
            (parsed.ok ? (
              parsed.transport === 'stdio' ? (
                <span className="parsed-line">
                  Starts <code>{parsed.command}</code>
                  {parsed.args.map((a, i) => (
                    <code key={i} className="parsed-arg">
                      {a}
                    </code>
                  ))}
                </span>
              ) : (
                <span>Connects to a Streamable HTTP server at {parsed.url}</span>
              )
            ) : (
              'A command as its README gives it (quotes work as in a shell), or the address of a remote server. Enter tests the connection.'
            ))}
        </div>
      </div>

      <NameValueRows
        kind={http ? 'header' : 'env'}
        rows={rows}
        onChange={(r) => {
          setRows(r);
          probe.reset();
        }}
        serverSlug={shownSlug}
      />

      {http && <OAuthClientFields draft={oauthDraft} onChange={setOAuthDraft} serverSlug={shownSlug} error={tried ? oauthError : undefined} />}

      <div className="add-server-test">
        <button type="button" className="btn" disabled={blocked || probe.isPending} onClick={() => probe.mutate()} data-testid="test-connection">
          {probe.isPending ? 'Connecting…' : 'Test connection'}
        </button>
        {probe.isPending && <span className="muted">Starting the server and asking for its tools…</span>}
      </div>
      {probe.isError && (
        <div className="notice notice-danger" role="alert" data-testid="probe-error">
          <strong>Could not connect.</strong> {errorMessage(probe.error)}
        </div>
      )}
      {probe.data && <ProbeResult probe={probe.data} />}

      <div className="add-server-names">
        <TextField
          label="Bundle slug"
          mono
          value={shownSlug}
          error={tried && !slugCheck.ok ? slugCheck.message : undefined}
          onValue={(v) => {
            setSlug(v);
            setSlugEdited(true);
          }}
          data-testid="server-slug"
        />
        <TextField
          label="Display name"
          value={displayName}
          maxLength={200}
          placeholder={probe.data?.server?.name ?? ''}
          onValue={setDisplayName}
          data-testid="server-name"
        />
      </div>

      {save.isError && (
        <div className="notice notice-danger" role="alert" data-testid="save-error">
          <strong>Not saved.</strong> {errorMessage(save.error)}
        </div>
      )}
      {tried && unsafe.length > 0 && (
        <div className="field-error" role="alert">
          {unsafe.map((r) => r.name).join(', ')} {unsafe.length === 1 ? 'holds' : 'hold'} a secret value: store it as a secret (the button beside it), or write{' '}
          <code>{'${NAME}'}</code> of a secret you already have. Secret values are never written into a bundle.
        </div>
      )}
      <div className="modal-actions">
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="server-save">
          {save.isPending ? 'Adding and syncing…' : 'Add server'}
        </button>
      </div>
    </form>
  );
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
