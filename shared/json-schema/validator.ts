/**
 * One validator interface, two providers (the MCP SDK's pattern): the core compiles JSON
 * Schemas with ajv (electron/core/validation.ts), the renderer with @cfworker/json-schema
 * (renderer/src/lib/schemaValidator.ts; ajv's code generation needs `new Function`, which
 * the renderer's CSP forbids). Both report failures in ajv's error shape, so one module
 * (./issues.ts) words them for people and models.
 */

/** A validation failure, in ajv's ErrorObject shape (the fields both providers can fill). */
export interface SchemaError {
  /** JSON pointer of the failing value: "" for the root, "/opts/days". */
  instancePath: string;
  /** JSON pointer of the failing keyword in the schema: "#/properties/opts/properties/days/maximum". */
  schemaPath: string;
  keyword: string;
  /** Keyword-specific facts, named as ajv names them: missingProperty, limit, allowedValues, type, format, … */
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled schema: call it; when it returns false, `errors` says why. */
export interface CompiledSchema {
  (value: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

export interface SchemaValidatorProvider {
  /** Throws when the schema itself is invalid, with a message that says why. */
  compile(schema: object | boolean): CompiledSchema;
}
