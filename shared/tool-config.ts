/**
 * A container tool's settings read and written on their own (docs/contracts.md, "Tool settings"):
 * what GET …/config answers and what a test of the configuration finds. Secret values never
 * travel out: a secret setting says only whether it is set.
 */
import type { Availability } from './types.js';

export interface ToolSettingView {
  name: string;
  /** A secret setting's value lives in the secrets store under `storedAs`; it is write-only. */
  secret: boolean;
  storedAs?: string;
  /** The tool cannot run while a required setting has no value. */
  required: boolean;
  /** Whether a value is there (a secret: whether the secret is set). */
  isSet: boolean;
  /** The value of a setting that is not secret (null when none). Never present for a secret. */
  value?: string | number | boolean | null;
  default?: unknown;
  type?: string;
  description?: string;
  enum?: unknown[];
}

export interface ToolConfigView {
  bundleID: string;
  toolID: string;
  slug: string;
  version: string;
  settings: ToolSettingView[];
  /** The settings' JSON Schema as the tool keeps it (impl.settingsSchema), or undefined when the tool has none. */
  schema?: Record<string, unknown>;
  /** The tool's ETag (the settings live in its tool.json). */
  etag?: string;
}

export interface ConfigProblem {
  setting: string;
  kind: 'missing' | 'invalid';
  message: string;
}

export interface ConfigTestResult {
  /** No required setting is missing and every value fits the schema. */
  ok: boolean;
  problems: ConfigProblem[];
  /** Settings that are optional and not set, said so the person knows they were seen. */
  notes: string[];
  /** The tool's availability as a run would meet it now (Docker, its image, …), beside the settings. */
  availability: Availability;
  /** One sentence a person reads first. */
  summary: string;
}
