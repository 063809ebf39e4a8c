// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';
import { basename } from 'node:path';

/** kebab-case file names (CONVENTIONS.md): `device-list.page.ts`, never `DeviceList.ts`. */
const KEBAB_FILE = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/;
const localRules = {
  rules: {
    'kebab-case-file-names': {
      meta: { type: 'suggestion', schema: [] },
      create: (context) => ({
        Program(node) {
          const name = basename(context.filename);
          if (!KEBAB_FILE.test(name))
            context.report({ node, message: `File name "${name}" is not kebab-case.` });
        },
      }),
    },
  },
};

const DOMAIN = ['server-domain', 'server-service', 'server-repository'];

/**
 * The server's tiers: each imports only the tiers below it. A test (`testSupport`) may also use
 * the test support and the fakes, whatever tier it stands in, and a test below the domains may
 * build the domains' repositories and services on its database (an integration test; tests ship
 * nowhere).
 */
const serverRules = (testSupport) => {
  const test = testSupport ? ['server-test', 'server-fakes'] : [];
  const foundation = ['server-foundation', 'contracts', ...test];
  const core = ['server-core', ...foundation];
  const plugins = ['server-plugins', ...core];
  const below = (tier) => (testSupport ? [...tier, ...DOMAIN] : tier);
  return [
    { from: 'server-foundation', allow: below(foundation) },
    { from: 'server-core', allow: below(core) },
    { from: 'server-plugins', allow: below(plugins) },
    // A domain uses its own code, the tiers below, and another domain's service; of the rest
    // of another domain it may import types only, and never its repository.
    {
      from: DOMAIN,
      allow: [
        ...plugins,
        'server-service',
        ['server-domain', { domain: '${from.domain}' }],
        ['server-repository', { domain: '${from.domain}' }],
      ],
    },
    { from: DOMAIN, importKind: 'type', allow: ['server-domain'] },
    // The composition (app.ts, main.ts, cli.ts, the demo) wires every domain together.
    {
      from: ['server', 'server-composition'],
      allow: ['server', 'server-composition', ...DOMAIN, ...plugins, 'server-test', 'server-fakes'],
    },
    {
      from: 'server-test',
      allow: ['server-test', 'server', 'server-composition', ...DOMAIN, ...plugins, 'server-fakes'],
    },
    { from: 'server-fakes', allow: ['server-fakes'] },
  ];
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/screenshots/**',
      'apps/server/scratch/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { boundaries, import: importPlugin, local: localRules },
    settings: {
      // Relative imports name their .ts files, so the node resolver finds them as they are.
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx'] } },
      // Cycles are ours to find; packages are not parsed for them.
      'import/ignore': ['node_modules'],
      // Re-exports and lazy imports cross boundaries as surely as plain imports do.
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/include': ['apps/**', 'packages/**', 'e2e/**', 'bench/**'],
      'boundaries/elements': [
        { type: 'contracts', pattern: 'packages/contracts/**', mode: 'full' },
        // The server's tiers, each importing only those below it (serverRules below):
        // foundation < core < plugins < domains < the composition. The WeChat / DingTalk fakes
        // first: the e2e global setup starts them too.
        { type: 'server-fakes', pattern: 'apps/server/src/test/fakes/**', mode: 'full' },
        // Test support (servers, factories, fakes): ships nowhere, may import anything.
        { type: 'server-test', pattern: 'apps/server/src/test/**', mode: 'full' },
        // db, broker, http, config, shared: imports no domain.
        { type: 'server-foundation', pattern: 'apps/server/src/foundation/**', mode: 'full' },
        // The core builder, the device registry, live state, gateway presence and credentials.
        { type: 'server-core', pattern: 'apps/server/src/core/**', mode: 'full' },
        // Cross-cutting Fastify plugins: given functions by the domains and app.ts.
        { type: 'server-plugins', pattern: 'apps/server/src/plugins/**', mode: 'full' },
        // app.ts, main.ts, cli.ts, the demo, and the tests of the whole server.
        {
          type: 'server-composition',
          pattern: ['apps/server/src/*.ts', 'apps/server/src/demo/**'],
          mode: 'full',
        },
        // The domains (identity, devices, telemetry, gateways, …).
        {
          type: 'server-repository',
          pattern: 'apps/server/src/*/repository.ts',
          mode: 'full',
          capture: ['domain'],
        },
        {
          type: 'server-service',
          pattern: 'apps/server/src/*/service.ts',
          mode: 'full',
          capture: ['domain'],
        },
        {
          type: 'server-domain',
          pattern: 'apps/server/src/*/**',
          mode: 'full',
          capture: ['domain'],
        },
        // build.mjs and the vitest config: above everything, like the composition.
        { type: 'server', pattern: 'apps/server/**', mode: 'full' },
        { type: 'gateway', pattern: 'apps/gateway/**', mode: 'full' },
        { type: 'web-app', pattern: 'apps/web/src/app/**', mode: 'full' },
        {
          type: 'web-feature',
          pattern: 'apps/web/src/features/*/**',
          mode: 'full',
          capture: ['feature'],
        },
        { type: 'web-shared', pattern: 'apps/web/src/shared/**', mode: 'full' },
        // renderPage, the fake API and the builders: for *.test.ts(x) only (rule below).
        { type: 'web-testing', pattern: 'apps/web/src/testing/**', mode: 'full' },
        { type: 'web', pattern: 'apps/web/**', mode: 'full' },
        { type: 'e2e', pattern: 'e2e/**', mode: 'full' },
        { type: 'bench', pattern: 'bench/**', mode: 'full' },
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify's plugin and hook APIs take async functions whether or not they await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'import/no-cycle': 'error',
      'local/kebab-case-file-names': 'error',
      // Imports flow one way: shared -> features -> app; apps never import each other; everything
      // shared between apps goes through packages/contracts (CONVENTIONS.md).
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: [
            { from: 'contracts', allow: ['contracts'] },
            ...serverRules(false),
            { from: 'gateway', allow: ['gateway', 'contracts'] },
            { from: 'web-shared', allow: ['web-shared', 'contracts'] },
            {
              from: 'web-feature',
              allow: [
                'web-shared',
                'web-testing',
                'contracts',
                ['web-feature', { feature: '${from.feature}' }],
              ],
            },
            {
              from: 'web-app',
              allow: ['web-app', 'web-feature', 'web-shared', 'web-testing', 'contracts'],
            },
            {
              from: 'web-testing',
              allow: ['web-testing', 'web-app', 'web-feature', 'web-shared', 'contracts'],
            },
            {
              from: 'web',
              allow: ['web', 'web-app', 'web-feature', 'web-shared', 'web-testing', 'contracts'],
            },
            // The journeys type the app's addresses from its own route table (shared/paths.ts).
            // …and start the WeChat / DingTalk fakes the server signs in with.
            { from: 'e2e', allow: ['e2e', 'contracts', 'web-shared', 'server-fakes'] },
            // A benchmark seeds through the server's own database layer (and starts the deploy's
            // Mosquitto as the tests do); it ships nowhere.
            { from: 'bench', allow: ['bench', 'contracts', 'server-foundation', 'server-test'] },
          ],
        },
      ],
    },
  },
  {
    // A server test uses the test support (servers, factories, fakes) whatever tier it tests.
    files: ['apps/server/src/**/*.test.ts'],
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: [{ from: 'contracts', allow: ['contracts'] }, ...serverRules(true)],
        },
      ],
    },
  },
  {
    // The web's testing/ folder (renderPage, fake API, builders) ships nowhere: only tests use it.
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'apps/web/src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/testing/*'],
              message: 'apps/web/src/testing/ is for *.test.ts(x) files only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', '**/testing.ts', '**/testing/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
