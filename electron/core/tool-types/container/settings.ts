/**
 * A container tool's settings as a person sees them (docs/contracts.md, "Tool settings"): the
 * values of impl.settings, the secrets it names, and impl.settingsSchema (a Chalie tool's
 * config_schema) saying what each may hold and which the tool cannot run without.
 * Without a schema, the rule before settings schemas holds: every secret is required, no plain
 * setting is.
 */
import type { FieldIssue } from '../../../../shared/errors.js';
import type { ContainerImpl } from '../../../../shared/tool-types/container.js';
import type { ConfigProblem, ToolSettingView } from '../../../../shared/tool-config.js';
import type { SecretsReader } from '../../secrets/types.js';
import { makeUserAjv } from '../../validation.js';
import { apiIssues } from '../../../../shared/json-schema/issues.js';

type Json = Record<string, unknown>;
type PlainValue = string | number | boolean | null;

const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/** The settings schema's properties and required names (empty when the tool has no schema). */
function schemaOf(impl: ContainerImpl): { properties: Json; required: Set<string>; present: boolean } {
  const schema = obj(impl.settingsSchema);
  const required = Array.isArray(schema?.['required']) ? (schema['required'] as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  return { properties: obj(schema?.['properties']) ?? {}, required: new Set(required), present: schema !== undefined };
}

/** Each setting of the tool, in the schema's order, then settings the schema does not name, then secrets received under their own name. */
export function settingViews(impl: ContainerImpl, secrets: SecretsReader): ToolSettingView[] {
  const { properties, required, present } = schemaOf(impl);
  const stored = impl.settings ?? {};
  const names = [...new Set([...Object.keys(properties), ...Object.keys(stored)])];
  const referenced = new Set(Object.values(stored).flatMap((v) => (v && typeof v === 'object' ? [v.secret] : [])));
  const views: ToolSettingView[] = names.map((name) => {
    const prop = obj(properties[name]) ?? {};
    const value = stored[name];
    const secretName = value && typeof value === 'object' ? value.secret : undefined;
    const secret = secretName !== undefined || prop['writeOnly'] === true;
    const view: ToolSettingView = {
      name,
      secret,
      required: present ? required.has(name) : secret,
      isSet: secret ? secretName !== undefined && secrets.has(secretName) : value !== undefined && value !== null,
    };
    if (secretName) view.storedAs = secretName;
    if (!secret) view.value = (value as PlainValue | undefined) ?? null;
    if (prop['default'] !== undefined && !secret) view.default = prop['default'];
    if (typeof prop['type'] === 'string') view.type = prop['type'];
    if (typeof prop['description'] === 'string') view.description = prop['description'];
    if (Array.isArray(prop['enum'])) view.enum = prop['enum'];
    return view;
  });
  // impl.secrets not behind a setting reach the container under their own name: settings too, always required.
  for (const name of impl.secrets ?? []) {
    if (referenced.has(name) || names.includes(name)) continue;
    views.push({ name, secret: true, storedAs: name, required: true, isSet: secrets.has(name) });
  }
  return views;
}

/** Secrets a run needs: every secret the tool names, but those of settings its schema leaves optional. */
export function requiredSecretNames(impl: ContainerImpl): string[] {
  const { required, present } = schemaOf(impl);
  const optional = new Set(
    present ? Object.entries(impl.settings ?? {}).flatMap(([name, v]) => (v && typeof v === 'object' && !required.has(name) ? [v.secret] : [])) : [],
  );
  const all = [...(impl.secrets ?? []), ...Object.values(impl.settings ?? {}).flatMap((v) => (v && typeof v === 'object' ? [v.secret] : []))];
  // A secret also named by a required setting (or listed in impl.secrets on its own) stays required.
  const needed = new Set(Object.entries(impl.settings ?? {}).flatMap(([name, v]) => (v && typeof v === 'object' && required.has(name) ? [v.secret] : [])));
  return [...new Set(all)].filter((name) => needed.has(name) || !optional.has(name));
}

/** Why a run cannot start for want of a plain setting (secrets are the engine's check), or undefined. */
export function missingSettingReason(impl: ContainerImpl): string | undefined {
  const { properties, required } = schemaOf(impl);
  const stored = impl.settings ?? {};
  for (const name of required) {
    const value = stored[name];
    if (value && typeof value === 'object') continue; // a secret setting: the engine checks its secret
    if (obj(properties[name])?.['writeOnly'] === true) continue;
    if (value === undefined || value === null || value === '') return `setting ${name} is not set; set it in the tool's Configuration (or PUT …/config)`;
  }
  return undefined;
}

const ajv = makeUserAjv();

/** Issues of one plain value against its property schema, each naming `settings.<name>`. */
function valueIssues(name: string, prop: Json | undefined, value: PlainValue): FieldIssue[] {
  if (!prop || value === null) return [];
  const { default: _d, writeOnly: _w, ...schema } = prop;
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (e) {
    return [{ field: `settings.${name}`, message: `cannot be checked: the tool's settings schema for it is not valid (${(e as Error).message})` }];
  }
  return validate(value) ? [] : apiIssues(validate.errors, `settings.${name}`);
}

/**
 * Checks a write of some settings (`null` clears one) and says what goes where: plain values
 * into impl.settings, secret values into the secrets store. Throws nothing; the issues name each field.
 */
export function planSettingsWrite(
  impl: ContainerImpl,
  patch: Record<string, PlainValue>,
  secrets: SecretsReader,
): { issues: FieldIssue[]; plain: Record<string, PlainValue>; secretWrites: { name: string; value: string | null }[] } {
  const views = new Map(settingViews(impl, secrets).map((v) => [v.name, v]));
  const { properties } = schemaOf(impl);
  const issues: FieldIssue[] = [];
  const plain: Record<string, PlainValue> = {};
  const secretWrites: { name: string; value: string | null }[] = [];
  for (const [name, value] of Object.entries(patch)) {
    const field = `settings.${name}`;
    const view = views.get(name);
    if (!view) {
      const known = [...views.keys()];
      issues.push({
        field,
        message: known.length
          ? `is not a setting of this tool; its settings are ${known.join(', ')}`
          : 'is not a setting of this tool: it has no settings (its manifest declared no config_schema)',
      });
      continue;
    }
    if (view.secret) {
      if (!view.storedAs) {
        issues.push({ field, message: 'is a secret with no stored name in impl.settings ({"secret": NAME}); edit the tool to name one' });
      } else if (value !== null && typeof value !== 'string') {
        issues.push({ field, message: 'is a secret: send its value as a string (or null to clear it)' });
      } else if (value === '') {
        issues.push({ field, message: 'is empty; send null to clear a secret' });
      } else secretWrites.push({ name: view.storedAs, value });
      continue;
    }
    const found = valueIssues(name, obj(properties[name]), value);
    if (found.length) issues.push(...found);
    else plain[name] = value;
  }
  return { issues, plain, secretWrites };
}

/** What a test of the configuration finds: required settings with no value, stored values that do not fit their schema. */
export function configProblems(impl: ContainerImpl, secrets: SecretsReader): { problems: ConfigProblem[]; notes: string[] } {
  const { properties } = schemaOf(impl);
  const problems: ConfigProblem[] = [];
  const notes: string[] = [];
  for (const view of settingViews(impl, secrets)) {
    if (!view.isSet) {
      if (view.required) {
        problems.push({
          setting: view.name,
          kind: 'missing',
          message: view.secret
            ? `${view.name} is required and not set (a secret, stored as ${view.storedAs ?? view.name})${view.description ? `: ${view.description}` : ''}`
            : `${view.name} is required and has no value${view.description ? `: ${view.description}` : ''}`,
        });
      } else notes.push(`${view.name} is optional and not set${view.description ? `: ${view.description}` : ''}`);
      continue;
    }
    if (view.secret) continue;
    for (const issue of valueIssues(view.name, obj(properties[view.name]), view.value ?? null)) {
      problems.push({ setting: view.name, kind: 'invalid', message: `${view.name} ${issue.message} (it holds ${JSON.stringify(view.value)})` });
    }
  }
  return { problems, notes };
}
