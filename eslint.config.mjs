// The linter: typescript-eslint's recommended rules, the type-aware promise rules, and import rules that keep the
// layers apart (no cycles; foundation folders never import feature folders; the web app never imports server code;
// stores never import components). Run by `npm test` (scripts/test.mjs) and so by CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const server = './apps/server/src';
/** What every area of the server stands on; these folders import nothing from the areas. */
const FOUNDATION = ['db', 'http', 'lib', 'storage', 'types'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'apps/web/public/**', 'packages/node-datachannel-stub/**'] },
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'apps/cli/src/**/*.ts', 'apps/extension/src/**/*.ts', 'packages/*/src/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x reads no TypeScript module it follows, and finds no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'apps/cli/tsconfig.json', 'apps/extension/tsconfig.json', 'packages/client/tsconfig.json'] }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // An async handler given to a React attribute is fine: React ignores what it returns.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...FOUNDATION.map((dir) => ({
              target: `${server}/${dir}`,
              from: server,
              except: [...FOUNDATION.map((d) => `./${d}`), './config.ts', './context.ts'],
              message: 'A foundation folder imports nothing from the areas above it.',
            })),
            { target: './apps/web', from: './apps/server', message: 'The web app shares only packages/shared with the server.' },
            { target: './apps/web/src/**/*-store.ts', from: './apps/web/src/**/*.tsx', message: 'A store never imports a component.' },
          ],
        },
      ],
    },
  },
  {
    // Kysely types migrations as Kysely<any> by design: a migration must not lean on today's schema types.
    files: ['apps/server/src/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
