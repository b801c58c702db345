import tseslint from 'typescript-eslint';

// Layering, in the spirit of VS Code's common/node/browser/electron-main split:
//   shared/   pure TypeScript — no node:*, no electron, no DOM, nothing from main/ or renderer/
//   renderer/ never reaches main/ or electron; it talks to the Api interface only
//   electron  is imported only by the Electron entry files (main/index.ts, main/electron/)
//             and the preload.
const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'process',
  'stream',
  'url',
  'util',
  'worker_threads',
  'zlib',
  'tty',
  'readline',
];
const noElectron = {
  name: 'electron',
  message: 'electron may be imported only by main/index.ts, main/electron/ and preload/.',
};

const browserGlobals = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'location',
  'fetch',
  'process',
  'Buffer',
  'require',
  '__dirname',
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'bench/work/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [noElectron] }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...nodeBuiltins.map((name) => ({ name, message: 'shared/ is pure: no Node built-ins.' })),
          ],
          patterns: [
            { group: ['node:*'], message: 'shared/ is pure: no node:* modules.' },
            {
              group: ['**/main/**', '**/main', '**/renderer/**', '**/renderer', '**/preload/**'],
              message: 'shared/ must not depend on main/, renderer/ or preload/.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...browserGlobals.map((name) => ({ name, message: 'shared/ runs everywhere: no DOM or Node globals.' })),
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { group: ['**/main/**', '**/main'], message: 'renderer/ must not import main/; use the Api interface.' },
            { group: ['node:*'], message: 'renderer/ has no Node access.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/index.ts', 'main/electron/**/*.ts', 'preload/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  // Prettier wraps code at 120 columns; this catches what it cannot wrap (comments) and keeps
  // files small enough to read whole. Long string and template literals are data, not layout.
  {
    files: ['**/*.{ts,tsx,mjs,cjs}'],
    rules: {
      'max-len': [
        'error',
        {
          code: 120,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts', 'main/**/*.ts', 'preload/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 600 }] },
  },
  // A command's exit code comes from the EXIT table (shared/result.ts), never a bare number,
  // so the codes the usage text promises and the error codes that map onto them stay one set.
  {
    files: ['main/cli/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'ReturnStatement > Literal',
          'ReturnStatement > ConditionalExpression > Literal',
          'Property[key.name="code"] > Literal.value',
          'VariableDeclarator[id.typeAnnotation.typeAnnotation.typeName.name="ExitCode"] > Literal.init',
          'AssignmentExpression[left.name=/^(code|exitCode|worst)$/] > Literal.right',
        ].map((at) => ({
          selector: `${at}[raw=/^[0-9]+$/]`,
          message: 'a literal exit number: return EXIT.ok / EXIT.failed / EXIT.usage (shared/result.ts) instead.',
        })),
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
