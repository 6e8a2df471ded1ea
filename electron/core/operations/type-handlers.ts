/**
 * The dispatcher's one table of handlers: the generic ones (./handlers.ts) and those of the tool
 * types' services (tool-types/type-service.ts), checked once as the core opens. Every operation of
 * the contract gets exactly one handler, so a type's domain merged into shared/operations.ts
 * without a service that answers it stops the core with the operation's name, rather than
 * answering "unknown operation" to the first caller.
 */
import { agentOperations, operations, type AnyOpName, type TypeOpName } from '../../../shared/operations.js';
import type { Handler, Handlers } from './dispatch.js';

/** Handlers of every operation that is no tool type's (the agent door's included): the types' services answer theirs. */
export type GenericHandlers = { [N in Exclude<AnyOpName, TypeOpName>]: Handler<N> };

export function withTypeHandlers(generic: GenericHandlers, typed: ReadonlyMap<string, (input: never) => unknown>): Handlers {
  const all: Record<string, unknown> = { ...generic };
  for (const [name, handler] of typed) {
    if (Object.hasOwn(all, name)) throw new Error(`operation '${name}' has a generic handler and a tool type's: each operation has one home`);
    all[name] = handler;
  }
  const missing = Object.keys({ ...operations, ...agentOperations }).filter((name) => !Object.hasOwn(all, name));
  if (missing.length) {
    throw new Error(`no handler for ${missing.join(', ')}: a tool type whose contract domain names an operation answers it from its service`);
  }
  return all as Handlers;
}
