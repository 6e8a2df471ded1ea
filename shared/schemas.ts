/**
 * The JSON Schemas of bundle.json, tool.json and config.json, kept once here and used by
 * main (ajv), the REST host, the renderer and the tests. TypeBox gives the schema and the
 * static type from one declaration, so the types cannot drift from what is validated.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { UUID_PATTERN } from './ids.js';

export const SCHEMA_VERSION = '1';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Uuid = Type.String({ pattern: UUID_PATTERN, description: 'UUID, lower-case (the app generates v7)' });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC, e.g. 2026-05-14T13:44:00.000Z' });
/** Slug rules are Unicode-aware and checked in code (shared/slug.ts); the schema only bounds the type. */
export const SlugString = Type.String({ minLength: 1, maxLength: 256 });
export const SecretName = Type.String({ pattern: '^[A-Z][A-Z0-9_]*$', maxLength: 128 });

export const ToolType = Type.Union([Type.Literal('function'), Type.Literal('http'), Type.Literal('container')]);
export type ToolType = Static<typeof ToolType>;

export const Safety = Type.Union([Type.Literal('readOnly'), Type.Literal('sideEffecting'), Type.Literal('privileged')]);
export type Safety = Static<typeof Safety>;

/** Colours of a card: hex, rgb()/rgba()/hsl()/hsla() or a CSS named colour. Never url() or expressions. */
export const CssColor = Type.String({
  maxLength: 64,
  pattern: '^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\\([0-9.,%\\s/deg]+\\)|[a-zA-Z]{3,24})$',
});

export const Card = Type.Object(
  {
    enabled: Type.Boolean(),
    title: Type.Optional(Type.String({ maxLength: 200 })),
    accentColor: Type.Optional(CssColor),
    backgroundColor: Type.Optional(CssColor),
  },
  { additionalProperties: false },
);
export type Card = Static<typeof Card>;

export const Limits = Type.Object(
  {
    maxCallsPerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
    maxOutputBytes: Type.Optional(Type.Integer({ minimum: 64, maximum: 16 * 1024 * 1024 })),
  },
  { additionalProperties: false },
);
export type Limits = Static<typeof Limits>;

export const FunctionImpl = Type.Object(
  { function: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)+$', maxLength: 128 }) },
  { additionalProperties: false },
);
export type FunctionImpl = Static<typeof FunctionImpl>;

export const HmacAuth = Type.Object(
  {
    type: Type.Literal('hmac'),
    secret: SecretName,
    algorithm: Type.Optional(Type.Union([Type.Literal('sha256'), Type.Literal('sha512')])),
    header: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$", maxLength: 128 })),
    timestampHeader: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$", maxLength: 128 })),
    prefix: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const OAuth2ClientCredentialsAuth = Type.Object(
  {
    type: Type.Literal('oauth2ClientCredentials'),
    tokenUrl: Type.String({ pattern: '^https?://', maxLength: 2048 }),
    clientIdSecret: SecretName,
    clientSecretSecret: SecretName,
    scope: Type.Optional(Type.String({ maxLength: 1024 })),
    audience: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: false },
);

export const HttpAuth = Type.Union([HmacAuth, OAuth2ClientCredentialsAuth]);
export type HttpAuth = Static<typeof HttpAuth>;

export const HttpImpl = Type.Object(
  {
    method: Type.Union([
      Type.Literal('GET'),
      Type.Literal('POST'),
      Type.Literal('PUT'),
      Type.Literal('PATCH'),
      Type.Literal('DELETE'),
      Type.Literal('HEAD'),
      Type.Literal('OPTIONS'),
    ]),
    urlTemplate: Type.String({ minLength: 1, maxLength: 8192 }),
    headers: Type.Optional(Type.Record(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }), Type.String({ maxLength: 8192 }))),
    bodyTemplate: Type.Optional(Type.String({ maxLength: 1024 * 1024 })),
    successCodes: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { minItems: 1, maxItems: 100 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600000 })),
    responseEncoding: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')])),
    extractExpr: Type.Optional(Type.String({ maxLength: 2048 })),
    errorMode: Type.Optional(Type.Union([Type.Literal('fail'), Type.Literal('empty')])),
    maxRetries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    auth: Type.Optional(HttpAuth),
  },
  { additionalProperties: false },
);
export type HttpImpl = Static<typeof HttpImpl>;

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

export const ContainerImpl = Type.Object(
  {
    image: Type.Optional(Type.String({ minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9][A-Za-z0-9._/:@-]*$' })),
    build: Type.Optional(Type.Literal('.')),
    sandbox: Type.Optional(Sandbox),
    timeoutSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3600 })),
    /** App-scoped secrets the container receives in `settings` (names only; values never leave the secrets store). */
    secrets: Type.Optional(Type.Array(SecretName, { maxItems: 64, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type ContainerImpl = Static<typeof ContainerImpl>;

export const Impl = Type.Union([FunctionImpl, HttpImpl, ContainerImpl]);
export type Impl = FunctionImpl | HttpImpl | ContainerImpl;

/** A JSON Schema given by the user; compiled by ajv in code, so here only "an object or a boolean". */
export const JsonSchemaValue = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Boolean()]);

const toolFields = {
  schemaVersion: Type.Literal(SCHEMA_VERSION),
  toolID: Uuid,
  bundleID: Uuid,
  slug: SlugString,
  version: SlugString,
  displayName: Type.String({ maxLength: 200 }),
  description: Type.String({ maxLength: 10000 }),
  type: ToolType,
  isEnabled: Type.Boolean(),
  isBuiltIn: Type.Boolean(),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 64 }),
  safety: Safety,
  argSchema: JsonSchemaValue,
  outputSchema: JsonSchemaValue,
  impl: Type.Object({}, { additionalProperties: true }),
  card: Card,
  limits: Limits,
  createdAt: Timestamp,
  modifiedAt: Timestamp,
};

/** tool.json as stored. Keys starting with "x-" are kept for people who annotate files by hand. */
export const ToolFile = Type.Object(toolFields, { additionalProperties: false, patternProperties: { '^x-': {} } });
export type ToolFile = Static<typeof ToolFile> & { impl: Impl };

/** The order keys are written in, so a data folder diffs well. Unknown keys follow, sorted. */
export const TOOL_KEY_ORDER = Object.keys(toolFields);

export const BundleFile = Type.Object(
  {
    schemaVersion: Type.Literal(SCHEMA_VERSION),
    bundleID: Uuid,
    slug: SlugString,
    displayName: Type.String({ maxLength: 200 }),
    description: Type.String({ maxLength: 10000 }),
    isEnabled: Type.Boolean(),
    isBuiltIn: Type.Boolean(),
    createdAt: Timestamp,
    modifiedAt: Timestamp,
    softDeletedAt: Type.Optional(Nullable(Timestamp)),
  },
  { additionalProperties: false, patternProperties: { '^x-': {} } },
);
export type BundleFile = Static<typeof BundleFile>;
export const BUNDLE_KEY_ORDER = [
  'schemaVersion',
  'bundleID',
  'slug',
  'displayName',
  'description',
  'isEnabled',
  'isBuiltIn',
  'createdAt',
  'modifiedAt',
  'softDeletedAt',
];

export const ConfigLimits = Type.Object(
  {
    maxCallsPerMinute: Type.Integer({ minimum: 1, maximum: 100000 }),
    maxOutputBytes: Type.Integer({ minimum: 64, maximum: 16 * 1024 * 1024 }),
  },
  { additionalProperties: false },
);

export const Config = Type.Object(
  {
    allowedHosts: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 1000 }),
    allowPrivateNetwork: Type.Boolean(),
    toolsEnabled: Type.Boolean(),
    workspaceRoot: Nullable(Type.String({ maxLength: 4096 })),
    limits: ConfigLimits,
  },
  { additionalProperties: false },
);
export type Config = Static<typeof Config>;

export const DEFAULT_CONFIG: Config = {
  allowedHosts: [],
  allowPrivateNetwork: false,
  toolsEnabled: true,
  workspaceRoot: null,
  limits: { maxCallsPerMinute: 60, maxOutputBytes: 16384 },
};

export const CONFIG_KEY_ORDER = Object.keys(DEFAULT_CONFIG);
