/** IPC channel names, shared by main and the preload. No imports: the preload bundles this whole. */
export const OP_CHANNEL_PREFIX = 'tw:op:';
export const EVENT_CHANNEL = 'tw:event';

export function opChannel(name: string): string {
  return OP_CHANNEL_PREFIX + name;
}
