/** `${name}` placeholders of http templates and `{{name}}` placeholders of card titles. */

export const SECRET_NAME = /^[A-Z][A-Z0-9_]*$/;

export interface Placeholder {
  name: string;
  start: number;
  end: number;
}

const DOLLAR_PLACEHOLDER = /\$\{([^}]*)\}/g;
const MUSTACHE_PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

export function findPlaceholders(template: string): Placeholder[] {
  const out: Placeholder[] = [];
  for (const m of template.matchAll(DOLLAR_PLACEHOLDER)) {
    out.push({ name: m[1]!.trim(), start: m.index!, end: m.index! + m[0].length });
  }
  return out;
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * `${version}`: the tool's own version label, as the original spec lets an http header name it
 * (`"X-Api-Version": "${version}"`). An argSchema property of that name wins.
 */
export const TOOL_VERSION_PLACEHOLDER = 'version';

/**
 * Expands `${name}`; `encode` decides how each value is written (percent-encoded in a URL,
 * JSON-escaped in a JSON body). A name without a value throws, naming it.
 */
export function expandTemplate(
  template: string,
  lookup: (name: string) => string | undefined,
  encode: (value: string, name: string) => string = (v) => v,
): string {
  return template.replace(DOLLAR_PLACEHOLDER, (_m, raw: string) => {
    const name = raw.trim();
    const value = lookup(name);
    if (value === undefined) throw new Error(`placeholder \${${name}} has no value`);
    return encode(value, name);
  });
}

/** Fills `{{arg}}` of a card title from the call's arguments; unknown names become empty. */
export function fillCardTitle(template: string, args: Record<string, unknown>): string {
  return template.replace(MUSTACHE_PLACEHOLDER, (_m, name: string) => {
    const value = Object.hasOwn(args, name) ? args[name] : undefined; // not a prototype member
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}
