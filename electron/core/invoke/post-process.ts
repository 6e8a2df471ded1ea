/**
 * What happens to a run's output before anyone sees it, in this order:
 * 1. the value is made plain JSON and checked against outputSchema;
 * 2. secrets are redacted everywhere (value, card, error, HTTP exchange) — before any cut, so
 *    a cut can never leave the first half of a secret standing;
 * 3. sizes are capped (value and card text to maxOutputBytes, card html to the larger of that
 *    and CARD_HTML_MIN_BYTES, exchange bodies, error messages).
 */
import type { ApiError } from '../../../shared/errors.js';
import type { ToolFile } from '../../../shared/schemas.js';
import { fillCardTitle, isSecretName } from '../../../shared/template.js';
import type { HttpExchange, InvokeResult } from '../../../shared/types.js';
import { capIssues, toApiError } from '../errors.js';
import { sanitizeCardHtml } from '../card/server-sanitizer.js';
import { cardHtmlTooDeep, MAX_CARD_HTML_DEPTH } from '../../../shared/card/depth.js';
import { valueText } from '../../../shared/format.js';
import { REDACTED, maskCredentialHeaders, type SecretRedactor } from '../secrets/redact.js';
import type { ToolValidators } from './schema-cache.js';
import { modelIssues, summarise } from '../../../shared/json-schema/issues.js';
import { capJsonValue, capText, utf8Bytes, utf8Prefix } from './truncate.js';
import type { PartialOutput, RunOutput } from './types.js';
import type { SecretsReader } from '../secrets/types.js';

/** Card HTML is for the UI, not a model's context: it may exceed maxOutputBytes up to this. */
export const CARD_HTML_MIN_BYTES = 256 * 1024;
const MAX_ERROR_MESSAGE_BYTES = 4096;
const MAX_CARD_TITLE_BYTES = 400;

function sanitiseError(error: ApiError, redactor: SecretRedactor): ApiError {
  const clean = redactor.deep(error);
  clean.message = capText(clean.message, MAX_ERROR_MESSAGE_BYTES).value;
  if (clean.details !== undefined) {
    let detailsJson: string | undefined;
    try {
      detailsJson = JSON.stringify(clean.details);
    } catch {
      detailsJson = undefined;
    }
    if (detailsJson === undefined) delete clean.details;
    else {
      const capped = capJsonValue(clean.details, MAX_ERROR_MESSAGE_BYTES * 4, detailsJson);
      if (capped.originalBytes !== undefined) clean.details = { clipped: capped.value };
    }
  }
  return clean;
}

function sanitiseExchange(http: HttpExchange, redactor: SecretRedactor, maxBytes: number): HttpExchange {
  const clean = redactor.deep(http);
  const request: HttpExchange['request'] = { ...clean.request, headers: maskCredentialHeaders(clean.request.headers ?? {}) };
  if (request.body !== undefined) {
    const body = capText(request.body, maxBytes);
    request.body = body.value;
    // Pieces of a body cut short would rebuild more than what is shown.
    if (body.originalBytes !== undefined && request.secretParts?.body) {
      const { body: _cut, ...rest } = request.secretParts;
      request.secretParts = rest;
    }
  }
  const out: HttpExchange = { request, attempts: clean.attempts };
  if (clean.response) {
    const body = capText(clean.response.body, maxBytes);
    out.response = { ...clean.response, headers: maskCredentialHeaders(clean.response.headers ?? {}), body: body.value };
    if (body.originalBytes !== undefined) out.response.truncated = true;
  }
  return out;
}

function buildCard(tool: ToolFile, args: Record<string, unknown>, runCard: RunOutput['card']): InvokeResult['card'] {
  if (!tool.card?.enabled) return undefined;
  const card: NonNullable<InvokeResult['card']> = {};
  const title = runCard?.title ?? (tool.card.title ? fillCardTitle(tool.card.title, args) : undefined);
  if (title) card.title = title;
  if (typeof runCard?.html === 'string') card.html = runCard.html;
  if (typeof runCard?.text === 'string') card.text = runCard.text;
  return card;
}

/**
 * Capped first (the parser closes a cut tag), then sanitised, so what leaves the core is inert.
 * Serialising can lengthen text (a bare & becomes &amp;): then the budget shrinks and it runs again.
 */
function capSanitizedHtml(html: string, limit: number): { html: string } | { note: string } {
  let budget = limit;
  for (let attempt = 0; attempt < 4; attempt++) {
    const capped = capText(html, budget).value;
    // Bounded before the sanitiser walks it (it recurses per level); anything else it throws at costs the card, not the result.
    if (cardHtmlTooDeep(capped))
      return { note: `the card's html was left out: it nests deeper than ${MAX_CARD_HTML_DEPTH} elements, which cannot be sanitised safely` };
    let clean: string;
    try {
      clean = sanitizeCardHtml(capped);
    } catch (e) {
      return { note: `the card's html was left out: it could not be sanitised (${String((e as Error)?.message ?? e).slice(0, 200)})` };
    }
    const bytes = utf8Bytes(clean);
    if (bytes <= limit) return { html: clean };
    budget = Math.floor((budget * limit * 0.9) / bytes);
  }
  return { html: '' };
}

function capCard(card: NonNullable<InvokeResult['card']>, maxBytes: number, value: unknown): NonNullable<InvokeResult['card']> {
  const out = { ...card };
  if (out.title !== undefined) out.title = utf8Prefix(out.title, MAX_CARD_TITLE_BYTES);
  if (out.html !== undefined) {
    const html = capSanitizedHtml(out.html, Math.max(maxBytes, CARD_HTML_MIN_BYTES));
    if ('html' in html) out.html = html.html;
    else {
      delete out.html;
      out.note = html.note;
      if (out.text === undefined && value !== undefined) out.text = valueText(value);
    }
  }
  if (out.text !== undefined) out.text = capText(out.text, maxBytes).value;
  return out;
}

export interface PostProcessInput {
  invocationID: string;
  tool: ToolFile;
  args: Record<string, unknown>;
  validators: ToolValidators;
  redactor: SecretRedactor;
  maxOutputBytes: number;
  /** The run's output, or undefined when it threw or was cancelled. */
  output: RunOutput | undefined;
  error: unknown;
  /** What a run that did not finish had produced (a pipeline's steps so far). */
  partial?: PartialOutput;
  /** False when the caller shows no card (a pipeline's step): none is built or sanitised. */
  card?: boolean;
}

/** The InvokeResult of a finished run; durationMs is left for the caller to set. */
export function postProcess(p: PostProcessInput): InvokeResult {
  const { redactor } = p;
  const result: InvokeResult = { ok: false, invocationID: p.invocationID, durationMs: 0 };
  if (!p.output) {
    result.error = sanitiseError(toApiError(p.error ?? new Error('the tool produced no output'), { unexpected: 'the tool failed' }), redactor);
    if (p.partial?.steps) result.steps = redactor.deep(p.partial.steps);
    return result;
  }
  const out = p.output;
  let error: ApiError | undefined;
  let text: string | undefined;
  let value: unknown;
  try {
    text = JSON.stringify(out.value) ?? 'null';
    value = JSON.parse(text);
  } catch (e) {
    error = { code: 'INVALID_OUTPUT', message: `the tool's value is not JSON (${e instanceof Error ? e.message : String(e)}); fix the tool` };
  }
  if (!error && !p.validators.output(value)) {
    const issues = modelIssues(p.validators.output.errors, value, 'the output');
    error = {
      code: 'INVALID_OUTPUT',
      message: `the tool's output does not match its outputSchema: ${summarise(issues)}; fix the tool or its outputSchema`,
      details: capIssues(issues.map(({ field, message }) => ({ field, message }))),
    };
  }
  if (text !== undefined) {
    if (redactor.mentionedIn(text)) {
      value = redactor.deep(value);
      text = undefined;
    }
    const capped = capJsonValue(value, p.maxOutputBytes, text);
    result.value = capped.value;
    if (capped.originalBytes !== undefined) result.truncated = { originalBytes: capped.originalBytes };
  }
  const card = p.card === false ? undefined : buildCard(p.tool, p.args, out.card);
  // A tool whose run gives no card body (an http tool) still shows a card: its value, as text.
  if (card && card.html === undefined && card.text === undefined && result.value !== undefined && !error) {
    card.text = valueText(result.value);
  }
  if (card && Object.keys(card).length) result.card = capCard(redactor.deep(card), p.maxOutputBytes, error ? undefined : result.value);
  if (out.http) result.http = sanitiseExchange(out.http, redactor, p.maxOutputBytes);
  if (out.steps) result.steps = redactor.deep(out.steps);
  if (out.content?.length) result.content = redactor.deep(out.content);
  if (error) result.error = sanitiseError(error, redactor);
  else result.ok = true;
  return result;
}

function isSensitiveSchema(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Record<string, unknown>;
  return s['writeOnly'] === true || s['format'] === 'password' || s['x-secret'] === true;
}

/** Properties the argSchema marks as sensitive (writeOnly, format "password", "x-secret") are masked. */
export function maskMarked(value: unknown, schema: unknown, depth = 0): unknown {
  if (depth > 32 || typeof schema !== 'object' || schema === null || typeof value !== 'object' || value === null) return value;
  const s = schema as { properties?: Record<string, unknown>; items?: unknown };
  if (Array.isArray(value)) {
    if (typeof s.items !== 'object' || s.items === null) return value;
    return value.map((v) => (isSensitiveSchema(s.items) ? REDACTED : maskMarked(v, s.items, depth + 1)));
  }
  if (!s.properties) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const prop = Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
    out[k] = isSensitiveSchema(prop) ? REDACTED : maskMarked(v, prop, depth + 1);
  }
  return out;
}

/**
 * The arguments as the history keeps them: properties the schema marks as sensitive, and
 * top-level properties named after a secret that is set (an http tool's `${API_KEY}` filled
 * by the caller instead of the store), are masked; any string holding a secret is redacted.
 */
export function historyArgs(args: Record<string, unknown>, argSchema: unknown, secrets: SecretsReader, redactor: SecretRedactor): unknown {
  const masked = maskMarked(args, argSchema) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(masked)) {
    out[k] = isSecretName(k) && secrets.has(k) ? REDACTED : v;
  }
  return redactor.deep(out);
}
