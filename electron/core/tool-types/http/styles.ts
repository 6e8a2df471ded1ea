/**
 * OpenAPI's parameter serialisation (OpenAPI 3.1, "Style Values", after RFC 6570): how an
 * array or object argument is written into a query or form pair, a path segment or a header.
 * Delimiters (`,` `.` `;` `=` `|` `[` `]`) are written literally; every key and item goes
 * through `encode` (percent-encoding in URLs and form bodies, none in headers).
 *
 * | style          | array, explode=false | array, explode=true | object, explode=false | object, explode=true |
 * |----------------|----------------------|---------------------|-----------------------|----------------------|
 * | form           | id=3,4,5             | id=3&id=4&id=5      | id=role,admin,n,Alex  | role=admin&n=Alex    |
 * | spaceDelimited | id=3%204%205         | (as form)           | id=role%20admin       | (as form)            |
 * | pipeDelimited  | id=3|4|5             | (as form)           | id=role|admin         | (as form)            |
 * | deepObject     | (as form)            | (as form)           | id[role]=admin        | id[role]=admin       |
 * | simple         | 3,4,5                | 3,4,5               | role,admin,n,Alex     | role=admin,n=Alex    |
 * | label          | .3,4,5               | .3.4.5              | .role,admin,n,Alex    | .role=admin.n=Alex   |
 * | matrix         | ;id=3,4,5            | ;id=3;id=4;id=5     | ;id=role,admin,n,Alex | ;role=admin;n=Alex   |
 */
import type { ParamSerialization } from '../../../../shared/tool-types/http.js';
import { isPlainObject } from '../../../../shared/plain-object.js';

type Encode = (text: string) => string;

/** An item or member as text: strings as they are, other scalars by String, nested values as JSON. */
function scalarText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** OpenAPI's default explode: true for form (and the styles that behave as form when exploded), false otherwise. */
export function explodes(s: ParamSerialization): boolean {
  return s.explode ?? (s.style === 'form' || s.style === 'deepObject');
}

const QUERY_DELIMITER: Partial<Record<ParamSerialization['style'], string>> = { form: ',', spaceDelimited: '%20', pipeDelimited: '|' };

/**
 * The `key=value` pairs of one query or form parameter (its key given encoded), each encoded;
 * none when the value is absent or an empty array or object (an optional parameter is not sent empty).
 */
export function serializePairs(k: string, value: unknown, s: ParamSerialization, encode: Encode): string[] {
  if (value === undefined || value === null) return [];
  const explode = explodes(s);
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    const items = value.map((v) => encode(scalarText(v)));
    if (explode || s.style === 'deepObject') return items.map((v) => `${k}=${v}`);
    return [`${k}=${items.join(QUERY_DELIMITER[s.style] ?? ',')}`];
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return [];
    if (s.style === 'deepObject') return entries.map(([name, v]) => `${k}[${encode(name)}]=${encode(scalarText(v))}`);
    if (explode) return entries.map(([name, v]) => `${encode(name)}=${encode(scalarText(v))}`);
    const flat = entries.flatMap(([name, v]) => [encode(name), encode(scalarText(v))]);
    return [`${k}=${flat.join(QUERY_DELIMITER[s.style] ?? ',')}`];
  }
  return [`${k}=${encode(scalarText(value))}`];
}

/** One path or header parameter (styles simple, label, matrix), already encoded; "" when absent. */
export function serializeSegment(name: string, value: unknown, s: ParamSerialization, encode: Encode): string {
  if (value === undefined || value === null) return '';
  const explode = explodes(s);
  const style = s.style === 'label' || s.style === 'matrix' ? s.style : 'simple';
  const n = encode(name);
  if (Array.isArray(value)) {
    const items = value.map((v) => encode(scalarText(v)));
    if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
    if (style === 'matrix') return explode ? items.map((v) => `;${n}=${v}`).join('') : `;${n}${items.length ? `=${items.join(',')}` : ''}`;
    return items.join(',');
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [encode(k), encode(scalarText(v))] as const);
    if (style === 'label') return `.${entries.map(([k, v]) => (explode ? `${k}=${v}` : `${k},${v}`)).join(explode ? '.' : ',')}`;
    if (style === 'matrix') {
      return explode ? entries.map(([k, v]) => `;${k}=${v}`).join('') : `;${n}${entries.length ? `=${entries.map(([k, v]) => `${k},${v}`).join(',')}` : ''}`;
    }
    return entries.map(([k, v]) => (explode ? `${k}=${v}` : `${k},${v}`)).join(',');
  }
  const text = encode(scalarText(value));
  if (style === 'label') return `.${text}`;
  if (style === 'matrix') return `;${n}=${text}`;
  return text;
}
