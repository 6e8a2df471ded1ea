/**
 * Schema pieces every other schema builds on (IDs, timestamps, names, colours). Kept apart from
 * schemas.ts so the tool types' impl schemas (shared/tool-types/) and the file schemas can both
 * use them without importing each other.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { UUID_PATTERN } from './ids.js';
import { HEADER_NAME_MAX, HEADER_NAME_PATTERN } from './net/headers.js';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Uuid = Type.String({ pattern: UUID_PATTERN, description: 'UUID, lower-case (the app generates v7)' });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC, e.g. 2026-05-14T13:44:00.000Z' });
/** Slug rules are Unicode-aware and checked in code (shared/slug.ts); the schema only bounds the type. */
export const SlugString = Type.String({ minLength: 1, maxLength: 256 });
export const SecretName = Type.String({ pattern: '^[A-Z][A-Z0-9_]*$', maxLength: 128 });
export { HEADER_NAME_MAX, HEADER_NAME_PATTERN, headerNameProblem, headerValueProblem } from './net/headers.js';
export const HeaderName = Type.String({ pattern: HEADER_NAME_PATTERN, maxLength: HEADER_NAME_MAX });

export const Safety = Type.Union([Type.Literal('readOnly'), Type.Literal('sideEffecting'), Type.Literal('privileged')]);

/** Colours of a card: hex, rgb()/rgba()/hsl()/hsla() or a CSS named colour. Never url() or expressions. */
export const CssColor = Type.String({
  maxLength: 64,
  pattern: '^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\\([0-9.,%\\s/deg]+\\)|[a-zA-Z]{3,24})$',
});

/** A JSON Schema given by the user; compiled by ajv in code, so here only "an object or a boolean". */
export const JsonSchemaValue = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Boolean()]);
