/**
 * Vitest global set-up: one Chromium for the whole run, shared by the e2e files (each opens its own
 * fresh context, so no cookie, storage or permission crosses from one file to the next). Launching
 * Chromium costs about 3 s of CPU; the 22 e2e files paid it each. It is launched when the first file
 * asks the broker (a loopback HTTP answer with its WebSocket address), so a run without e2e files
 * starts no browser, and launched again if it died.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumBroker?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: Promise<BrowserServer> | undefined;
  // Synchronous, so two files asking at once share one launch.
  const running = (): Promise<BrowserServer> => {
    if (!server) {
      const launching = chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
      server = launching;
      launching.then(
        (s) => s.process().once('exit', () => server === launching && (server = undefined)),
        () => server === launching && (server = undefined),
      );
    }
    return server;
  };
  const broker = createServer((_req, res) => {
    running().then(
      (s) => res.end(s.wsEndpoint()),
      (e: unknown) => {
        res.statusCode = 500;
        res.end(`Chromium (${CHROMIUM}) did not start: ${String(e)}`);
      },
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  project.provide('chromiumBroker', `http://127.0.0.1:${(broker.address() as AddressInfo).port}/`);
  return async () => {
    broker.close();
    await (await server?.catch(() => undefined))?.close();
  };
}
