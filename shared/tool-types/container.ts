/** impl of a `container` tool: a sandboxed, short-lived Docker container per call. */
import { Type, type Static } from '@sinclair/typebox';
import { SecretName } from '../schema-primitives.js';

export { CONTAINER_DEFAULTS } from './constants.js';

export const Sandbox = Type.Object(
  {
    /** Megabytes as a number, or a string with a unit: "256m", "1g". */
    memory: Type.Optional(Type.Union([Type.Integer({ minimum: 6, maximum: 65536 }), Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?[kKmMgG]?[bB]?$' })])),
    network: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('bridge')])),
    writable: Type.Optional(Type.Boolean()),
    cpus: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 64 })),
  },
  { additionalProperties: false },
);
export type Sandbox = Static<typeof Sandbox>;

/** A setting whose value is an app-scoped secret's (impl.settings). */
export const SecretSetting = Type.Object({ secret: SecretName }, { additionalProperties: false });
export type SecretSetting = Static<typeof SecretSetting>;

export const ContainerImpl = Type.Object(
  {
    image: Type.Optional(Type.String({ minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9][A-Za-z0-9._/:@-]*$' })),
    build: Type.Optional(Type.Literal('.')),
    sandbox: Type.Optional(Sandbox),
    timeoutSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3600 })),
    /** App-scoped secrets the container receives in `settings` (names only; values never leave the secrets store). */
    secrets: Type.Optional(Type.Array(SecretName, { maxItems: 64, uniqueItems: true })),
    /**
     * Settings the container receives in `settings` beside the secrets (a Chalie tool's config
     * defaults). `{"secret": "NAME"}` passes the app-scoped secret NAME under this setting's own
     * name, so a container that reads `api_key` gets it whatever the secret is called here.
     */
    settings: Type.Optional(
      Type.Record(
        Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' }),
        Type.Union([Type.String({ maxLength: 4096 }), Type.Number(), Type.Boolean(), Type.Null(), SecretSetting]),
        {
          maxProperties: 64,
        },
      ),
    ),
    /**
     * What each setting may hold, as a JSON Schema of an object (a Chalie tool's config_schema):
     * `properties` type, describe and bound the values (a secret one is `writeOnly: true`),
     * `required` names those the tool cannot run without. Checked when settings are written
     * (toolConfig.put) and by availability: a required setting with no value makes the tool unavailable.
     */
    settingsSchema: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);
export type ContainerImpl = Static<typeof ContainerImpl>;
