// @ts-check
/**
 * The house rules a machine checks (npm run lint, part of npm test). Besides typescript-eslint's
 * recommended rules and React's hook rules, the layering of docs/architecture.md ("Layers"):
 *   shared/        pure: imports nothing of electron/ or renderer/, no Node built-ins
 *   electron/core/ never imports `electron`, electron/host|shell|cli, main, preload or renderer/
 *   electron/host/ never imports `electron`, electron/shell or electron/cli (the shell wires them together), and of
 *                  electron/core only the dispatcher's door (HOST_MAY_IMPORT_OF_CORE); its two entry points, which
 *                  build the core as the shell does, also the composition root (test/architecture.test.ts checks the same)
 *   electron/cli/  never imports `electron` or electron/shell; its commands (cli/commands/, and a tool
 *                  type's in cli/tool-types/) reach the core only through cli/session.ts (the
 *                  operations contract), like REST and IPC
 *   renderer/      never imports electron/ (it talks to main only through its API client);
 *                  inside it, shell (app/) → features (features/<feature>/) → lib/, components/ → api/:
 *                  only renderer/src/api/ imports api/client.ts, nothing imports the shell, the
 *                  foundation (lib/, components/, api/) imports no feature, and api/ nothing above it
 * Import cycles between folders of electron/core and between renderer modules are checked by
 * test/architecture.test.ts.
 * A tool type lives in its own folders (docs/architecture.md, "How to add… a tool type"): outside
 * them and the registries, code never compares a `.type` to a tool type's name (TYPE_NAME_BRANCHES).
 * docs/architecture.md ("Layers") shows the same zones as a table.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// The renderer's layers (docs/architecture.md, "The renderer"), top to bottom: the shell (app/), the features (one folder
// per feature under features/, with its screens, parts and styles; tool-types/ is one more, each type's editor and
// slots in its own folder), and the foundation: lib/ (helpers), components/ (building blocks), api/.
const RENDERER = './renderer/src';
const RENDERER_SHELL = `${RENDERER}/app`;
const RENDERER_FEATURES = ['features', 'tool-types'].map((f) => `${RENDERER}/${f}`);
const RENDERER_FOUNDATION = ['lib', 'components', 'api'].map((f) => `${RENDERER}/${f}`);

// A regex on the specifier, not gitignore patterns: those also matched a folder of that name (tool-types/http/).
const NODE_BUILTINS = [
  { regex: '^(node:.*|(fs|path|os|child_process|crypto|http|https|net|stream|url|util|events|worker_threads)(/.*)?)$', message: 'no Node built-ins here' },
];

/** `x.type === 'http'`, `'http' !== x?.type`, `switch (x.type) { case 'http': … }`: generic code asking a type's name instead of its module. */
const TYPE_NAME = '/^(function|http|container|pipeline|mcp|go)$/';
const DOT_TYPE = (side) => `:matches([${side}.property.name='type'][${side}.computed=false], [${side}.expression.property.name='type'])`;
const TYPE_NAME_MESSAGE =
  'generic code must not branch on a tool type\'s name: ask the type registry for the capability (electron/core/tool-types/registry.ts, renderer/src/tool-types/registry.ts; docs/architecture.md, "How to add… a tool type")';
const TYPE_NAME_BRANCHES = [
  { selector: `BinaryExpression[operator=/^[!=]==?$/]${DOT_TYPE('left')}[right.value=${TYPE_NAME}]`, message: TYPE_NAME_MESSAGE },
  { selector: `BinaryExpression[operator=/^[!=]==?$/]${DOT_TYPE('right')}[left.value=${TYPE_NAME}]`, message: TYPE_NAME_MESSAGE },
  { selector: `SwitchStatement${DOT_TYPE('discriminant')} > SwitchCase[test.value=${TYPE_NAME}]`, message: TYPE_NAME_MESSAGE },
];

// What a transport (electron/host) may import of electron/core: the dispatcher's door and the types around it. The same
// set as test/architecture.test.ts's TRANSPORT_DOOR; the entry points that build the core (as the Electron shell and the
// CLI's session do) may also import the composition root (its ENTRY_POINTS and COMPOSITION).
const HOST_MAY_IMPORT_OF_CORE = ['./operations/transport.ts', './operations/dispatch.ts', './errors.ts', './log.ts'];
const HOST_ENTRY_POINTS = ['electron/host/serve.ts', 'electron/host/mcp/entry/stdio.ts'];
const CORE_COMPOSITION = ['./app-core.ts', './schedules/scheduler.ts'];

/** The layers as import-x/no-restricted-paths zones; `hostBuildsCore` for the host's entry points alone. */
const layerZones = (hostBuildsCore) => [
  {
    target: './shared',
    from: ['./electron', './renderer', './test'],
    message: 'shared/ is pure: it must not depend on electron/, renderer/ or tests.',
  },
  {
    target: './electron/core',
    from: ['./electron/host', './electron/shell', './electron/cli', './electron/main.ts', './electron/preload.ts', './renderer'],
    message: 'electron/core/ runs everywhere (app, host, CLI, tests): it must not reach into transports, the shell or the renderer.',
  },
  {
    target: './electron/host',
    from: ['./electron/shell', './electron/cli', './electron/main.ts', './renderer'],
    message: 'transports must not depend on the Electron shell or the renderer.',
  },
  {
    target: './electron/host',
    from: './electron/core',
    except: hostBuildsCore ? [...HOST_MAY_IMPORT_OF_CORE, ...CORE_COMPOSITION] : HOST_MAY_IMPORT_OF_CORE,
    message: hostBuildsCore
      ? "an entry point of the host imports of electron/core only the dispatcher's door (operations/transport.ts, operations/dispatch.ts, errors.ts, log.ts) and the composition root (app-core.ts, schedules/scheduler.ts)."
      : 'a transport (REST, IPC, MCP) reaches the core only through the dispatcher: import operations/transport.ts (or dispatch.ts, errors.ts, log.ts) of electron/core, never a core service; add an operation (shared/operations/) for what it needs.',
  },
  {
    target: './electron/cli',
    from: ['./electron/shell', './electron/main.ts', './electron/preload.ts', './renderer'],
    message: 'the CLI runs in plain Node: it must not depend on the Electron shell or the renderer.',
  },
  {
    target: ['./electron/cli/commands', './electron/cli/tool-types'],
    from: ['./electron/core', './electron/host'],
    message:
      'a CLI command reaches the core through cli/session.ts (the operations contract, as REST and IPC do) and starts transports through cli/transports.ts.',
  },
  { target: './renderer', from: ['./electron', './test'], message: 'the renderer talks to main only through renderer/src/api/client.ts.' },
  {
    target: ['./renderer/src/!(api)/**', './renderer/src/*.{ts,tsx}'],
    from: './renderer/src/api/client.ts',
    message:
      'only renderer/src/api/ talks to the client: call a named operation of api/operations.ts or a hook of api/queries.ts / mutations.ts; errors are in api/errors.ts, the token in api/session.ts.',
  },
  {
    target: [...RENDERER_FEATURES, ...RENDERER_FOUNDATION],
    from: RENDERER_SHELL,
    message: 'the shell (renderer/src/app/: main, App, Sidebar, SignIn, boot) is the top: nothing below it imports it.',
  },
  {
    target: RENDERER_FOUNDATION,
    from: RENDERER_FEATURES,
    message:
      'lib/, components/ and api/ are the foundation features stand on: they must not import a feature (renderer/src/features/…); move what two features share down into lib/ or components/.',
  },
  {
    target: `${RENDERER}/api`,
    from: `${RENDERER}/lib`,
    message: 'the api layer is the bottom of the renderer: it must not import lib/.',
  },
  {
    target: `${RENDERER}/api`,
    from: `${RENDERER}/components`,
    except: ['./Toasts.tsx'],
    message: 'the api layer is the bottom of the renderer: of components/ it may import only Toasts (a mutation may toast).',
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'test-results/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    // Imports name the emitted `.js`; the TypeScript resolver maps them to the `.ts` sources.
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-control-regex': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'import-x/no-restricted-paths': ['error', { zones: layerZones(false) }],
    },
  },
  {
    // A later block's options replace the earlier's: these files get the same zones, with the composition root allowed.
    files: HOST_ENTRY_POINTS,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones(true) }] },
  },
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron', 'react'], patterns: NODE_BUILTINS }] },
  },
  {
    files: ['electron/core/**/*.ts', 'electron/host/**/*.ts', 'electron/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'only electron/main.ts, preload.ts and electron/shell/ may import electron' }],
          // store/'s own modules import './state.js', which this does not match.
          patterns: [{ group: ['**/store/state.js'], message: "the store's memory is store/'s own: ask store.reader (store/reader.ts) instead" }],
        },
      ],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/core/store/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='state'][object.name='store'], MemberExpression[property.name='state'][object.property.name='store']",
          message: "the store's memory is store/'s own: ask store.reader (store/reader.ts) instead",
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The classic hook rules; the React Compiler's stricter ones (refs, set-state-in-effect) are not adopted.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { paths: ['electron'], patterns: NODE_BUILTINS }],
    },
  },
  {
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    // A type's own folders and the registries are where its name is spoken.
    ignores: ['electron/core/tool-types/**', 'electron/cli/tool-types/**', 'shared/tool-types/**', 'renderer/src/tool-types/**'],
    rules: { 'no-restricted-syntax': ['error', ...TYPE_NAME_BRANCHES] },
  },
  {
    // Build configs run in Node.
    files: ['renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
