// First and in this order, so that the components' own styles (imported by each) come after the global ones.
import '../styles/base.css';
import '../styles/controls.css';
import '../styles/pages.css';
import '../styles/surfaces.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { adoptTokenFromUrl } from '../api/session.js';
import { startFirstScreen } from './boot.js';
import { ApiCallError } from '../api/errors.js';
import { App } from './App.js';
import { SignInGate } from './SignIn.js';
import { NavProvider } from '../lib/nav.js';
import { ToastProvider } from '../components/Toasts.js';
import { ConfirmProvider } from '../components/Dialog.js';
import { TransferProvider } from '../features/transfer/TransferProvider.js';

performance.mark('tw:app-start');

/**
 * The start, in a microtask of its own instead of at the module's top level: a stack captured while
 * the top level is on it (a request's initiator, a timer's, with DevTools or a trace attached) makes
 * V8 collect the source positions of the top level, which is the whole entry chunk, re-parsed on
 * the main thread (47–92 ms at load 8 in traces of the first render).
 */
queueMicrotask(() => {
  adoptTokenFromUrl();
  start();
});

function start(): void {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        // Contract errors (not found, invalid input, unauthorized) will not change on retry.
        retry: (count, error) => count < 2 && !(error instanceof ApiCallError && error.code !== 'INTERNAL'),
        staleTime: 5_000,
        refetchOnWindowFocus: false,
      },
    },
  });
  // The first render waits for the first screen's data (boot.ts): the frame and its data in one commit.
  void startFirstScreen(queryClient).then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <ToastProvider>
            <ConfirmProvider>
              <NavProvider>
                <SignInGate>
                  <TransferProvider>
                    <App />
                  </TransferProvider>
                </SignInGate>
              </NavProvider>
            </ConfirmProvider>
          </ToastProvider>
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}
