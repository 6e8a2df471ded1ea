/**
 * Long runs as tasks: the `io.modelcontextprotocol/tasks` extension's requests on a 2026-07-28
 * server (the SDK has none). A tools/call that asks for a task is agents.call with `task` (the
 * task answered at once, its run going on in the core); `tasks/get` polls it, `tasks/update`
 * answers its approval, `tasks/cancel` stops it — each an agent-door operation for the caller of
 * the request, so a task is served to the principal that started it alone (another's id reads as
 * unknown), from any connection or process on the data folder.
 */
import { ProtocolError, ProtocolErrorCode, inputResponse, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { CancelTaskRequestV2Schema, GetTaskRequestV2Schema, TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { Caller } from '../../../../shared/caller.js';
import type { Envelope } from '../../../../shared/errors.js';
import type { TransportCore } from '../../../core/operations/transport.js';
import type { AudienceWatch } from './audience-watch.js';

/** A refused task request as the extension's clients expect it: invalid params, with the core's words. */
function answer<T>(env: Envelope<T>): T {
  if (!env.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, env.error.message);
  return env.data;
}

/** Serves tasks on this server when it speaks 2026-07-28; a 2025 server gets none. */
export function registerTasks(
  server: Server,
  core: TransportCore,
  audience: AudienceWatch,
  callerOf: (ctx: ServerContext) => Caller,
  era: 'legacy' | 'modern',
): void {
  if (era !== 'modern') return;
  server.registerCapabilities({ extensions: { [TASKS_EXTENSION_ID_V2]: {} } });
  const ref = { audience: audience.ref };

  server.setRequestHandler(
    'tasks/get',
    { params: GetTaskRequestV2Schema.shape.params },
    async (params, ctx) => answer(await core.dispatch('agents.tasks.get', { ...ref, taskId: params.taskId }, { caller: callerOf(ctx) })) as never,
  );

  // The SDK lifts inputResponses out of the params into ctx.mcpReq.inputResponses: the params hold the taskId only.
  server.setRequestHandler('tasks/update', { params: GetTaskRequestV2Schema.shape.params }, async (params, ctx) => {
    const given = inputResponse(ctx.mcpReq.inputResponses, 'approve');
    const taskAnswer =
      given.kind === 'elicit' ? { action: given.action, confirm: given.content?.['confirm'] === true } : { action: 'none' as const, confirm: false };
    return answer(await core.dispatch('agents.tasks.update', { ...ref, taskId: params.taskId, answer: taskAnswer }, { caller: callerOf(ctx) })) as never;
  });

  server.setRequestHandler(
    'tasks/cancel',
    { params: CancelTaskRequestV2Schema.shape.params },
    async (params, ctx) => answer(await core.dispatch('agents.tasks.cancel', { ...ref, taskId: params.taskId }, { caller: callerOf(ctx) })) as never,
  );
}
