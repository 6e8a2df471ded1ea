/**
 * The browser host without a token: instead of failing every call with 401, a page that says
 * where the token comes from and takes it. The desktop app (IPC) never shows it.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiCallError } from '../api/errors.js';
import { setToken, token, transportKind } from '../api/session.js';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { bundleListQuery } from '../api/queries.js';
import './SignIn.css';

type State = { kind: 'checking' } | { kind: 'ok' } | { kind: 'needed'; error?: string };

/** Asks for what the first screen asks for anyway (main.tsx sent it already): no request of its own. */
async function verify(qc: QueryClient): Promise<State> {
  try {
    await qc.fetchQuery(bundleListQuery('exclude'));
    return { kind: 'ok' };
  } catch (e) {
    if (e instanceof ApiCallError && e.code === 'UNAUTHORIZED') return { kind: 'needed', ...(token() ? { error: 'The host refused this token.' } : {}) };
    return { kind: 'ok' }; // another failure: the app's own error states explain it
  }
}

/** What the bundles' answer already says (boot.ts waits for it before the first render), so the gate need not render twice. */
function initialState(qc: QueryClient): State {
  if (transportKind() === 'ipc') return { kind: 'ok' };
  if (!token()) return { kind: 'needed' };
  const first = qc.getQueryState(bundleListQuery('exclude').queryKey);
  if (first?.status === 'success') return { kind: 'ok' };
  if (first?.status === 'error' && first.error instanceof ApiCallError && first.error.code === 'UNAUTHORIZED')
    return { kind: 'needed', error: 'The host refused this token.' };
  return { kind: 'checking' };
}

export function SignInGate({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [state, setState] = useState<State>(() => initialState(qc));
  useEffect(() => {
    if (state.kind === 'checking') void verify(qc).then(setState);
  }, [state.kind, qc]);
  // While a token is being checked the app starts too: its first requests need not wait for the
  // check's round trip (a refused token is rare, and then the sign-in page replaces the app).
  if (state.kind === 'ok' || state.kind === 'checking') return <>{children}</>;
  return <SignIn error={state.error} onDone={() => setState({ kind: 'checking' })} />;
}

function SignIn({ error, onDone }: { error?: string; onDone(): void }) {
  const [value, setValue] = useState('');
  const [tried, setTried] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!value.trim()) return;
    setToken(value.trim());
    onDone();
  };
  return (
    <main className="signin" data-testid="signin">
      <form className="signin-card" onSubmit={submit} noValidate>
        <h1 className="page-title">Toolwright</h1>
        <p>This page talks to the Toolwright host on this computer, which asks for its token.</p>
        <ul className="signin-help">
          <li>
            <code>npm run serve</code> (or <code>toolwright serve</code>) prints it when it starts, with a link that signs you in: open that link.
          </li>
          <li>
            If the host was started with <code>TOOLWRIGHT_TOKEN</code> set, the token is that value.
          </li>
        </ul>
        <label className="field-label" htmlFor="signin-token">
          Token
        </label>
        <input
          id="signin-token"
          className="input mono"
          type="password"
          autoComplete="off"
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={!!error || (tried && !value.trim()) || undefined}
          aria-describedby="signin-error"
          data-testid="signin-token"
        />
        <div id="signin-error" className="field-error" role="alert">
          {tried && !value.trim() ? 'Paste the token first.' : error}
        </div>
        <button type="submit" className="btn btn-primary" data-testid="signin-submit">
          Open Toolwright
        </button>
      </form>
    </main>
  );
}
