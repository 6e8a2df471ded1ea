/** Settings and the system: config, secrets, problems, registered functions, system info. */
import { Type } from '@sinclair/typebox';
import { Config, SecretName } from '../schemas.js';
import type { Problem, SecretInfo, FunctionInfo, SystemInfo } from '../types.js';
import { op } from './op.js';

export const settingsOperations = {
  'config.get': op<Config>()({
    summary: 'config.json',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'config.patch': op<Config>()({
    summary: 'Merge fields into config.json',
    input: Type.Object({ patch: Type.Partial(Config, { additionalProperties: false }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'secrets.list': op<{ items: SecretInfo[] }>()({
    summary: 'Secret names with masked values, never a value',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'secrets.set': op<SecretInfo>()({
    summary: 'Set or replace a secret',
    input: Type.Object({ name: SecretName, value: Type.String({ minLength: 1, maxLength: 65536 }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'secrets.delete': op<{ deleted: boolean }>()({
    summary: 'Delete a secret',
    input: Type.Object({ name: SecretName }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'problems.list': op<{ items: Problem[] }>()({
    summary: 'Files on disk that could not be read, with path and reason',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'functions.list': op<{ items: FunctionInfo[] }>()({
    summary: 'In-process functions that function tools can name',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'system.info': op<SystemInfo>()({
    summary: 'Where the data lives and what this host can run',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
} as const;
