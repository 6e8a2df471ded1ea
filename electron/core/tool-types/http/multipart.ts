/**
 * multipart/form-data bodies (RFC 7578) for http tools. The template is written like a form
 * body, `name=${arg}&other=text`; each pair becomes one part. An argument the call leaves out
 * is left out; an array gives one part per item; an object is sent as JSON. An argument whose
 * schema says it holds a file's bytes (`contentEncoding: "base64"`, or OpenAPI's
 * `format: "binary"`/`"byte"`) is given as base64 and sent as a file part with those bytes.
 */
import { randomBytes } from 'node:crypto';
import { CoreError } from '../../errors.js';

export interface MultipartValue {
  /** The argument's value, or the expanded text of a pair that is not one placeholder. */
  value: unknown;
  /** The argument's schema, when the pair is one argument's placeholder. */
  schema?: Record<string, unknown> | undefined;
  argName?: string | undefined;
}

export interface MultipartBody {
  contentType: string;
  bytes: Uint8Array;
  /** The body as text with each file's bytes replaced by their count: for the exchange and HMAC signing. */
  text: string;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Field and file names in Content-Disposition, escaped as the HTML standard's form encoder does. */
function quoted(name: string): string {
  return `"${name.replace(/\r\n|\r|\n/g, '%0D%0A').replace(/"/g, '%22')}"`;
}

export function isFileSchema(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  return schema['contentEncoding'] === 'base64' || schema['format'] === 'binary' || schema['format'] === 'byte';
}

function fileBytes(text: unknown, argName: string): Buffer {
  const compact = typeof text === 'string' ? text.replace(/\s+/g, '') : '';
  if (typeof text !== 'string' || !BASE64.test(compact)) {
    throw new CoreError('INVALID_ARGS', `argument '${argName}' must be the file's content as base64 text`, {
      issues: [{ field: argName, message: 'must be base64 text (the file content)' }],
    });
  }
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function buildMultipart(fields: { name: string; part: MultipartValue }[]): MultipartBody {
  const boundary = `----toolwright-${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  let text = '';
  const add = (head: string, body: Buffer, shown: string) => {
    const h = Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`, 'utf8');
    chunks.push(h, body, Buffer.from('\r\n'));
    text += `--${boundary}\r\n${head}\r\n\r\n${shown}\r\n`;
  };
  for (const { name, part } of fields) {
    const items = Array.isArray(part.value) && part.schema?.['type'] === 'array' ? part.value : [part.value];
    const itemSchema = part.schema?.['type'] === 'array' ? (part.schema['items'] as Record<string, unknown> | undefined) : part.schema;
    for (const item of items) {
      if (item === undefined || item === null) continue;
      if (part.argName !== undefined && isFileSchema(itemSchema)) {
        const bytes = fileBytes(item, part.argName);
        const type = typeof itemSchema?.['contentMediaType'] === 'string' ? itemSchema['contentMediaType'] : 'application/octet-stream';
        add(`Content-Disposition: form-data; name=${quoted(name)}; filename=${quoted(name)}\r\nContent-Type: ${type}`, bytes, `[${bytes.length} bytes]`);
      } else if (typeof item === 'object') {
        const json = JSON.stringify(item);
        add(`Content-Disposition: form-data; name=${quoted(name)}\r\nContent-Type: application/json`, Buffer.from(json, 'utf8'), json);
      } else {
        const value = asText(item);
        add(`Content-Disposition: form-data; name=${quoted(name)}`, Buffer.from(value, 'utf8'), value);
      }
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  text += `--${boundary}--\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(chunks), text };
}
