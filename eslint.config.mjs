// ESLint 10 flat config: typescript-eslint's recommended rules (no type information, so a lint run
// stays a few seconds) and the borders between the parts of the house (eslint-plugin-boundaries).
//
// Borders (README, "Architecture"):
// - a plugin never imports another plugin;
// - a plugin reaches src/core, src/server and src/app only through their public faces (each
//   folder's index.ts), never a deeper path;
// - src/core imports neither src/server nor src/app; src/server never imports src/app, nor
//   src/app src/server;
// - tests (and the bench and tooling under tests/) are free.
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

const SOURCE = ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'coverage/**',
      'data/**',
      '.tmp/**',
      'tests/artifacts/**',
      'tests/fixtures/**',
      // generated (npm run schemas:types, npm run forms:validators): checked at their generator
      'src/core/wire-types.ts',
      'src/app/forms/precompiled/**',
    ],
  },
  {
    files: SOURCE,
    extends: [tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused names are a compiler matter here (tsc with strict); `_name` marks one kept on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `{}` as "no needs" is the plugin contract's default type parameter (defineServerPlugin<N = {}>).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'always', allowObjectTypes: 'always' }],
      // `any` is kept where variance needs it (the plugin contract's Token<any> and ContributionKind<any>,
      // a schemaless Kysely<any> for migrations and plugin tables); tsc's strict mode already refuses an
      // implicit any, so the rule would only add disable comments.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // CommonJS files, and tests, which load modules lazily or inside jest.isolateModules with require().
    files: ['**/*.{js,cjs}', 'tests/**'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: SOURCE,
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'] } },
      'boundaries/include': ['src/**', 'plugins/**', 'schemas/**', 'tests/**'],
      'boundaries/elements': [
        { type: 'core', pattern: 'src/core' },
        { type: 'server', pattern: 'src/server' },
        { type: 'app', pattern: 'src/app' },
        { type: 'plugin', pattern: 'plugins/*', capture: ['name'] },
        { type: 'schemas', pattern: 'schemas' },
        { type: 'tests', pattern: 'tests' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'plugin' } },
              disallow: { to: { element: { type: 'plugin', captured: { name: '!{{from.element.captured.name}}' } } } },
              message:
                'A plugin never imports another plugin ({{from.element.captured.name}} imports {{to.element.captured.name}}): move the shared code to src/server or src/app and export it from their public faces, or provide it as a service.',
            },
            {
              from: { element: { type: 'plugin' } },
              disallow: { to: { element: { types: ['core', 'server', 'app'], fileInternalPath: '!{index.ts,testing/index.ts}' } } }, // testing/: the testing faces plugins' tests use
              message:
                'A plugin imports src/{{to.element.type}} only through its public face (src/{{to.element.type}}/index.ts), not {{to.element.fileInternalPath}}.',
            },
            {
              from: { element: { type: 'plugin' } },
              disallow: { to: { element: { type: 'tests' } } },
              message: 'Plugin code does not import the tests.',
            },
            {
              from: { element: { type: 'core' } },
              disallow: { to: { element: { types: ['server', 'app', 'plugin', 'tests'] } } },
              message: 'src/core is the kernel of both runtimes: it imports neither src/{{to.element.type}} nor any plugin.',
            },
            {
              from: { element: { type: 'server' } },
              disallow: { to: { element: { types: ['app', 'plugin', 'tests'] } } },
              message: 'src/server never imports {{to.element.type}} code.',
            },
            {
              from: { element: { type: 'app' } },
              disallow: { to: { element: { types: ['server', 'plugin', 'tests'] } } },
              message: 'src/app never imports {{to.element.type}} code.',
            },
          ],
        },
      ],
    },
  },
);
