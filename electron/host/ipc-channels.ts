/** IPC channel names, shared by main and the preload. No imports: the preload bundles this whole. */
export const OP_CHANNEL_PREFIX = 'tw:op:';
export const EVENT_CHANNEL = 'tw:event';

export function opChannel(name: string): string {
  return OP_CHANNEL_PREFIX + name;
}
/** tools.invoke with its output streamed: the renderer's invoke, answered like tools.invoke. */
export const INVOKE_STREAM_CHANNEL = 'tw:invoke-stream';
/** Main → renderer: (invocationID, InvokeStreamEvent) while a streamed invoke runs. */
export const INVOKE_EVENT_CHANNEL = 'tw:invoke-event';
/** The preload function of a streamed invoke. */
export const INVOKE_STREAM_FUNCTION = 'toolsInvokeStream';
