/** impl of an `http` tool: a templated HTTP call (docs/contracts.md, "tool.json", impl `http`). */
import { Type, type Static } from '@sinclair/typebox';
import { HEADER_NAME_PATTERN, HeaderName, SecretName } from '../schema-primitives.js';

export { HTTP_DEFAULTS, HTTP_METHODS, type HttpMethod } from './constants.js';

export const HmacAuth = Type.Object(
  {
    type: Type.Literal('hmac'),
    secret: SecretName,
    algorithm: Type.Optional(Type.Union([Type.Literal('sha256'), Type.Literal('sha512')])),
    header: Type.Optional(HeaderName),
    timestampHeader: Type.Optional(HeaderName),
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

/**
 * How an argument that is an array or an object is written into the URL, a header or a form
 * body, by OpenAPI's parameter `style` and `explode` (OpenAPI 3.1, "Style Values"). Without an
 * entry an array in a `key=${arg}` pair is sent as one pair per item (form, explode) and any
 * other array or object as JSON text.
 */
export const ParamStyle = Type.Union([
  Type.Literal('form'),
  Type.Literal('spaceDelimited'),
  Type.Literal('pipeDelimited'),
  Type.Literal('deepObject'),
  Type.Literal('simple'),
  Type.Literal('label'),
  Type.Literal('matrix'),
]);
export type ParamStyle = Static<typeof ParamStyle>;
export const ParamSerialization = Type.Object({ style: ParamStyle, explode: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export type ParamSerialization = Static<typeof ParamSerialization>;

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
    headers: Type.Optional(Type.Record(Type.String({ pattern: HEADER_NAME_PATTERN }), Type.String({ maxLength: 8192 }))),
    bodyTemplate: Type.Optional(Type.String({ maxLength: 1024 * 1024 })),
    successCodes: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { minItems: 1, maxItems: 100 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600000 })),
    responseEncoding: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')])),
    extractExpr: Type.Optional(Type.String({ maxLength: 2048 })),
    errorMode: Type.Optional(Type.Union([Type.Literal('fail'), Type.Literal('empty')])),
    maxRetries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    auth: Type.Optional(HttpAuth),
    /** Per argument name: how an array or object value is serialised (OpenAPI style/explode). */
    serialization: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 256 }), ParamSerialization, { maxProperties: 1000 })),
  },
  { additionalProperties: false },
);
export type HttpImpl = Static<typeof HttpImpl>;
