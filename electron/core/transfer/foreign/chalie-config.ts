/**
 * A Chalie manifest's config_schema (a JSON Schema, or Chalie's flat map `{NAME: {type, required,
 * secret, description, default}}`) as a container tool's settings: secrets stored app-wide under
 * names of the tool's own, plain settings with their defaults, and the settings schema that
 * availability and the settings operations read (tool-types/container/settings.ts).
 */
import { secretName } from '../../util/names.js';
import { clip } from './common.js';

type Json = Record<string, unknown>;
type SettingValue = string | number | boolean | null | { secret: string };
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Chalie's setting types as JSON Schema types (float is a number). */
const SETTING_TYPES: Record<string, string> = {
  string: 'string',
  integer: 'integer',
  int: 'integer',
  float: 'number',
  number: 'number',
  boolean: 'boolean',
  bool: 'boolean',
};

/** One config_schema entry as a property of the settings schema: what a value may be, never a secret's default. */
function settingProperty(o: Json, secret: boolean, jsonSchema: boolean): Json {
  if (jsonSchema) {
    const { secret: _s, 'x-secret': _x, ...rest } = o;
    if (secret) delete rest['default'];
    return secret ? { ...rest, writeOnly: true } : rest;
  }
  const prop: Json = {};
  const type = typeof o['type'] === 'string' ? SETTING_TYPES[o['type'].toLowerCase()] : undefined;
  if (type) prop['type'] = type;
  if (typeof o['description'] === 'string') prop['description'] = o['description'];
  if (Array.isArray(o['enum'])) prop['enum'] = o['enum'];
  if (!secret && o['default'] !== undefined) prop['default'] = o['default'];
  if (secret) prop['writeOnly'] = true;
  return prop;
}

/**
 * config_schema, as a JSON Schema (`properties`) or as Chalie writes it, a flat map
 * `{NAME: {type, required, secret, description, default}}`. Entries marked secret are stored app-wide as
 * `<SLUG>_<KEY>` (UPPER_SNAKE_CASE), so two tools' `api_key`s stay apart, and reach the
 * container under the key as written (a setting `{"secret": NAME}`); the others become settings
 * with their defaults. `schema` is the settings schema kept in impl.settingsSchema: each entry's
 * type, description and enum, and `required` naming the entries marked required (a secret is
 * required unless the manifest says otherwise: `required: false`, or a JSON Schema `required`
 * list without it). `named` says how each secret was named, for the report.
 */
export function configSecrets(
  configSchema: unknown,
  toolSlug: string,
): { secrets: string[]; others: string[]; settings: Record<string, SettingValue>; named: string[]; schema?: Json } {
  const root = obj(configSchema);
  const jsonSchema = obj(root?.['properties']) !== undefined;
  const props = obj(root?.['properties']) ?? (root && !('type' in root) ? root : {});
  const listed = root?.['secrets'];
  const requiredList = jsonSchema && Array.isArray(root?.['required']) ? (root['required'] as unknown[]).filter((x) => typeof x === 'string') : undefined;
  const secrets = new Set<string>();
  const others: string[] = [];
  const settings: Record<string, SettingValue> = {};
  const named: string[] = [];
  const properties: Json = {};
  const required: string[] = [];
  const addSecret = (key: string, o: Json | undefined) => {
    const stored = secretName(`${toolSlug}_${key}`);
    secrets.add(stored);
    if (SETTING_NAME.test(key)) {
      settings[key] = { secret: stored };
      named.push(`${key} → ${stored}`);
      properties[key] = settingProperty(o ?? {}, true, jsonSchema);
      const optional = requiredList ? !requiredList.includes(key) : o?.['required'] === false;
      if (!optional) required.push(key);
    } else named.push(`${key} → ${stored} (the container receives it as ${stored}: '${clip(key, 64)}' cannot be a setting name)`);
  };
  if (Array.isArray(listed)) for (const key of listed) if (typeof key === 'string') addSecret(key, obj(props[key]));
  for (const [name, p] of Object.entries(props)) {
    const o = obj(p);
    if (!o || name === 'secrets') continue;
    if (o['secret'] === true || o['x-secret'] === true || o['writeOnly'] === true || o['format'] === 'password') {
      if (!(Array.isArray(listed) && listed.includes(name))) addSecret(name, o);
      continue;
    }
    others.push(name);
    const d = o['default'];
    const value: SettingValue =
      d === undefined ? null : typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' || d === null ? d : JSON.stringify(d);
    if (!SETTING_NAME.test(name)) continue;
    settings[name] = value;
    properties[name] = settingProperty(o, false, jsonSchema);
    if (requiredList ? requiredList.includes(name) : o['required'] === true) required.push(name);
  }
  const schema = Object.keys(properties).length ? { type: 'object', properties, required } : undefined;
  return { secrets: [...secrets].sort(), others, settings, named, ...(schema ? { schema } : {}) };
}
