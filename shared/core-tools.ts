/**
 * config.json settings of the built-in tools that need more than a workspace (docs/contracts.md,
 * "config.json"): `shell` for shell-exec (the sandbox a command runs in and which commands may
 * start) and `webSearch` for web-search (the backend it asks). Absent fields take the defaults
 * below; `null` clears a setting.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SecretName } from './schema-primitives.js';
import { Sandbox } from './tool-types/container.js';

/** A program name as the allow-list holds it: a bare name, never a path. */
export const COMMAND_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$';

export const ShellSettings = Type.Object(
  {
    /** The image commands run in; it must be on the Docker engine already (docker pull / load). */
    image: Type.Optional(Type.String({ minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9][A-Za-z0-9._/:@-]*$' })),
    /** Programs a command may start (its first word). */
    allowedCommands: Type.Optional(Type.Array(Type.String({ pattern: COMMAND_NAME_PATTERN }), { maxItems: 500, uniqueItems: true })),
    /** How the workspace folder appears at /workspace: read-only (default), writable, or not at all. */
    workspace: Type.Optional(Type.Union([Type.Literal('readOnly'), Type.Literal('readWrite'), Type.Literal('none')])),
    /** memory, cpus, network ("none" unless "bridge" is given) and a writable root, as container tools have them. */
    sandbox: Type.Optional(Sandbox),
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
  },
  { additionalProperties: false },
);
export type ShellSettings = Static<typeof ShellSettings>;

export const SHELL_DEFAULTS = {
  image: 'busybox:stable',
  /** Programs that read and report; none of them starts another program or writes outside /tmp. */
  allowedCommands: [
    'basename',
    'cat',
    'cmp',
    'cut',
    'date',
    'diff',
    'dirname',
    'du',
    'echo',
    'expand',
    'false',
    'find',
    'fold',
    'grep',
    'head',
    'id',
    'ls',
    'md5sum',
    'nl',
    'od',
    'paste',
    'printf',
    'pwd',
    'readlink',
    'realpath',
    'rev',
    'seq',
    'sha1sum',
    'sha256sum',
    'sha512sum',
    'sleep',
    'sort',
    'stat',
    'strings',
    'tac',
    'tail',
    'test',
    'tr',
    'true',
    'uname',
    'uniq',
    'wc',
  ],
  workspace: 'readOnly',
  timeoutSeconds: 30,
} as const;

export const WEB_SEARCH_PROVIDERS = ['searxng', 'brave'] as const;

export const WebSearchSettings = Type.Object(
  {
    /** searxng: a SearXNG instance's JSON API (`/search?format=json`); brave: the Brave Search API. */
    provider: Type.Union(WEB_SEARCH_PROVIDERS.map((p) => Type.Literal(p))),
    /** The instance's base URL (SearXNG), or the API's (Brave: https://api.search.brave.com by default). */
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    /** The app-scoped secret holding the API key (Brave's X-Subscription-Token; a SearXNG behind a token). */
    apiKeySecret: Type.Optional(SecretName),
    /** Search language, e.g. "en" (the backend's default when absent). */
    language: Type.Optional(Type.String({ minLength: 2, maxLength: 16, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' })),
  },
  { additionalProperties: false },
);
export type WebSearchSettings = Static<typeof WebSearchSettings>;

export const BRAVE_API_URL = 'https://api.search.brave.com';
