// Lint rules that protect the layering: no floating promises anywhere, and
// workflow code (replayed deterministically by Temporal) may not touch Node
// built-ins, the database or the network; no function longer than a screen.
import js from '@eslint/js';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** Calls whose callback is a list of test cases (`describe`, `describe.each(…)`, the browser tests' `inBrowser`). */
const CASE_LISTS = new Set(['describe', 'inBrowser']);

const calleeRoot = (callee) =>
  callee.type === 'MemberExpression'
    ? calleeRoot(callee.object)
    : callee.type === 'CallExpression'
      ? calleeRoot(callee.callee)
      : callee.name;

const isCaseList = (node) =>
  node.parent?.type === 'CallExpression' &&
  node.parent.arguments.includes(node) &&
  CASE_LISTS.has(calleeRoot(node.parent.callee));

/**
 * ESLint's max-lines-per-function, except for a list of test cases: it reads as a table of contents, and each
 * case in it is a function held to the limit like any other.
 */
const coreMaxLines = builtinRules.get('max-lines-per-function');
const maxLinesPerFunction = {
  meta: coreMaxLines.meta,
  create: (context) =>
    coreMaxLines.create(
      Object.create(context, {
        report: { value: (descriptor) => isCaseList(descriptor.node) || context.report(descriptor) },
      }),
    ),
};

export default tseslint.config(
  {
    // sdk/src/schema.ts is generated (npm run sdk:generate); tsc still checks it.
    ignores: [
      'node_modules/**',
      'dist/**',
      'sdk/dist/**',
      'sdk/src/schema.ts',
      'data/**',
      'coverage/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { house: { rules: { 'max-lines-per-function': maxLinesPerFunction } } },
    rules: {
      'house/max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON answers of the API; typing every body would add nothing.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflow code is replayed deterministically: do I/O in an activity.',
          })),
          patterns: [
            {
              group: ['mongoose', 'mongodb', 'mongoose/*', 'mongodb/*'],
              message: 'Workflows never touch the database: call an activity.',
            },
            {
              group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity'],
              message: 'Workflows import only @temporalio/workflow and @temporalio/common.',
            },
            {
              group: ['**/activities', '**/activities/**', '**/platform/**', '**/api/**'],
              allowTypeImports: true,
              message: 'Workflows reach side effects through proxyActivities only (type imports are fine).',
            },
          ],
        },
      ],
    },
  },
);
