import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerRules } from './eslint.layers.js';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'drizzle', 'test-results', 'playwright-report', 'e2e/.data', 'data'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Shared code runs in both the browser and Node: no framework or database package either.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-*', 'fastify', 'fastify-*', '@fastify/*', 'drizzle-orm*', 'pg'] }],
    },
  },
  {
    // The shared contract and the web app take zod's values through one home, which configures it
    // for the browser before any schema is made (src/shared/schemas/zod.ts); types may come direct.
    files: ['src/shared/**/*.ts', 'src/web/**/*.{ts,tsx}'],
    ignores: ['src/shared/schemas/zod.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', allowTypeImports: true, message: "Import z from src/shared/schemas/zod.ts, which sets zod up for the browser's Content Security Policy." }] },
      ],
    },
  },
  // Which of our layers may import which: eslint.layers.js.
  layerRules,
);
