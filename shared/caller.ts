/**
 * Who asked for an operation: one value, built once by the transport that received the request,
 * carried unchanged to the history, approvals, tasks and the audit log. Nothing parses it back
 * from a string; where a string is stored or answered (history's `caller`, audit records, an
 * approval's `caller`), it is formatted here, once, in the form those records have always had.
 */

/**
 * How the call reached the core: the desktop window (`app`, over Electron IPC), the REST API, an
 * agent over MCP (stdio or HTTP), the command line, a schedule, or a pipeline running its steps.
 * The same word names the transport in the audit log (its `transport` and `actor` fields).
 */
export type CallerTransport = 'app' | 'rest' | 'mcp' | 'cli' | 'schedule' | 'pipeline';

export interface Caller {
  transport: CallerTransport;
  /** Who, within the transport: an MCP client's `clientInfo.name`, a pipeline's slug; else the transport's own name. */
  name: string;
  /** The profile whose address served the call (its profileID). */
  profile?: string;
  /** The OAuth access token's subject, when the call came with one. */
  subject?: string;
  /** The OAuth client the token was issued to, when the call came with one. */
  client?: string;
  /** The ID of the profile token that opened the door, when the call came with one (not the host's token). */
  token?: string;
}

export const APP_CALLER: Caller = Object.freeze({ transport: 'app', name: 'app' });
export const CLI_CALLER: Caller = Object.freeze({ transport: 'cli', name: 'cli' });
export const SCHEDULE_CALLER: Caller = Object.freeze({ transport: 'schedule', name: 'schedule' });

export function pipelineCaller(pipelineSlug: string): Caller {
  return { transport: 'pipeline', name: pipelineSlug };
}

/** An OAuth caller as records name it: its subject, with its client when that is someone else. */
function oauthLabel(c: Caller): string | undefined {
  if (c.subject === undefined) return undefined;
  return c.client && c.client !== c.subject ? `oauth:${c.subject},client=${c.client}` : `oauth:${c.subject}`;
}

/**
 * The caller as the audit log, an approval and history write it: `mcp:<client>` (with
 * `@oauth:<subject>[,client=<id>]` under OAuth), `rest` or `rest@oauth:…`, `cli`, `app`,
 * `schedule`, `pipeline:<slug>`.
 */
export function callerLabel(c: Caller): string {
  const oauth = oauthLabel(c);
  switch (c.transport) {
    case 'mcp':
      return `mcp:${c.name}${oauth ? `@${oauth}` : ''}`;
    case 'pipeline':
      return `pipeline:${c.name}`;
    case 'rest':
      return oauth ? `rest@${oauth}` : 'rest';
    default:
      return c.transport;
  }
}

/**
 * History's `caller` of a run: the label, except for the app, a plain REST call and a schedule,
 * whose entries never carried one (a schedule's says `trigger: "schedule"`).
 */
export function historyCaller(c: Caller): string | undefined {
  if (c.transport === 'app' || c.transport === 'schedule') return undefined;
  if (c.transport === 'rest' && c.subject === undefined) return undefined;
  return callerLabel(c);
}

/** Who answered an approval, as its audit record says: a person in the app, a REST client, or an agent. */
export function approvalDecider(c: Caller): 'app' | 'rest' | 'agent' {
  return c.transport === 'mcp' ? 'agent' : c.transport === 'rest' ? 'rest' : 'app';
}

/**
 * The principal a caller speaks for, as a key: what its work (a task, the approval it waits on)
 * is bound to. An OAuth subject with its client; else a profile's token; else the data folder's
 * owner — the host's token, or a process started on the folder (stdio, the app, the CLI).
 */
export function principalKey(c: Caller): string {
  if (c.subject !== undefined) return `oauth:${JSON.stringify([c.subject, c.client ?? ''])}`;
  if (c.token !== undefined) return `profile-token:${c.token}`;
  return 'owner';
}
