/**
 * What a transport (Electron IPC, the REST host, MCP and the CLI) gets from the core: the
 * one dispatcher, the store's events, and the streaming export the REST host sends as is. Not
 * the services themselves: every call goes through the contract's validation.
 */
import type { StoreEvent } from '../../../shared/operations.js';
import type { OpenedExport } from '../transfer/export.js';
import type { Dispatch } from './dispatch.js';
import type { Logger } from '../log.js';

export interface EventSource {
  on(event: 'event', listener: (e: StoreEvent) => void): unknown;
  off(event: 'event', listener: (e: StoreEvent) => void): unknown;
}

export interface TransportCore {
  dispatch: Dispatch;
  events: EventSource;
  /** Validates the request, then streams the ZIP; errors come before the first byte. */
  openExport(bundleIDs: string[]): Promise<OpenedExport>;
  /** Where a transport reports what went wrong beside an answer (a connection that failed, a handler that threw). */
  logger: Logger;
}
