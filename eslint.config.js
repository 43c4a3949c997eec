import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // editors/vscode: an extension for another host (VS Code runs CommonJS), outside the TypeScript programs.
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      'bench/out/**',
      '**/*.generated.ts',
      // openapi-typescript's output: Prettier-formatted, but descriptions from the schemas run past max-len.
      'apps/console/src/generated/**',
      'editors/vscode/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // One TypeScript program per tsconfig, found by the project service: rules see real types.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // A user's expression or regex must never reach the JavaScript engine.
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // A union that grows must be handled everywhere it is switched on.
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // Prettier wraps code at 120; this catches the comments and strings it cannot wrap.
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  // Plain JavaScript config files are outside the TypeScript programs.
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
);
