/**
 * The parts of oidc-provider 9 the test helpers use (the package ships no types, and
 * @types/oidc-provider is not a dependency).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientLike {
    grantTypeAllowed(type: string): boolean;
  }
  interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    grantId?: string;
    session?: { accountId?: string };
  }
  interface GrantInstance {
    addOIDCScope(scope: string): void;
    addResourceScope(indicator: string, scope: string): void;
    save(): Promise<string>;
    destroy(): Promise<void>;
  }
  interface GrantClass {
    new (init: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  }
  export interface Configuration {
    clients?: unknown[];
    jwks?: { keys: unknown[] };
    cookies?: { keys: string[] };
    scopes?: string[];
    findAccount?: (ctx: unknown, sub: string) => unknown;
    interactions?: { url: (ctx: unknown, interaction: { uid: string }) => string };
    issueRefreshToken?: (ctx: unknown, client: ClientLike, code: unknown) => boolean | Promise<boolean>;
    ttl?: Record<string, number>;
    features?: Record<string, unknown>;
  }
  class Provider {
    constructor(issuer: string, configuration?: Configuration);
    static errors: Record<string, new (description?: string) => Error>;
    Grant: GrantClass;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: never[]) => void): this;
  }
  export default Provider;
}
