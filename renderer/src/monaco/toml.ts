import type * as Monaco from 'monaco-editor';

/**
 * A Monarch grammar for TOML 1.0: comments, [table] and [[array-of-tables]] headers,
 * bare / quoted / dotted keys, the four string kinds (multi-line included), integers in
 * every base, floats with inf/nan, booleans, offset / local date-times, inline tables and
 * arrays. Tokens map onto the standard theme scopes.
 */
export const tomlLanguage: Monaco.languages.IMonarchLanguage = {
  defaultToken: '',
  tokenPostfix: '.toml',
  brackets: [
    { open: '[', close: ']', token: 'delimiter.square' },
    { open: '{', close: '}', token: 'delimiter.curly' },
  ],
  escapes: /\\(?:[btnfr"\\]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})/,
  tokenizer: {
    root: [
      [/^\s*\[\[[^\]]*\]\]/, 'type.identifier'],
      [/^\s*\[[^\]]*\]/, 'type.identifier'],
      // A key, bare / quoted / dotted, only where a line starts (values never look like one there).
      [
        /^(\s*)((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)(?=\s*=)/,
        ['', 'key'],
      ],
      { include: '@whitespace' },
      [/=/, 'operator'],
      { include: '@valueItems' },
    ],
    valueItems: [
      [/"""/, 'string', '@mlBasic'],
      [/'''/, 'string', '@mlLiteral'],
      [/"/, 'string', '@basic'],
      [/'[^']*'/, 'string'],
      [/\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?/, 'number.date'],
      [/\d{2}:\d{2}:\d{2}(?:\.\d+)?/, 'number.date'],
      [/[+-]?(?:inf|nan)\b/, 'number.float'],
      [/0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*/, 'number.hex'],
      [/0o[0-7](?:_?[0-7])*/, 'number.octal'],
      [/0b[01](?:_?[01])*/, 'number.binary'],
      [/[+-]?(?:0|[1-9](?:_?\d)*)(?:\.\d(?:_?\d)*)?(?:[eE][+-]?\d(?:_?\d)*)?/, 'number'],
      [/\b(?:true|false)\b/, 'keyword'],
      [/\[/, { token: 'delimiter.square', next: '@array' }],
      [/\{/, { token: 'delimiter.curly', next: '@inline' }],
    ],
    array: [
      { include: '@whitespace' },
      [/\n/, ''],
      [/,/, 'delimiter'],
      [/\]/, { token: 'delimiter.square', next: '@pop' }],
      { include: '@valueItems' },
    ],
    inline: [
      [/[ \t]+/, ''],
      [/,/, 'delimiter'],
      [/\}/, { token: 'delimiter.curly', next: '@pop' }],
      [/[A-Za-z_][A-Za-z0-9_-]*(?=\s*(?:\.|=))/, 'key'],
      [/"(?:[^"\\]|\\.)*"(?=\s*(?:\.|=))/, 'key'],
      [/\.(?=\s*[A-Za-z_"])/, 'delimiter'],
      [/=/, 'operator'],
      { include: '@valueItems' },
    ],
    basic: [
      [/[^"\\]+/, 'string'],
      [/@escapes/, 'string.escape'],
      [/\\./, 'string.escape.invalid'],
      [/"/, 'string', '@pop'],
    ],
    mlBasic: [
      [/[^"\\]+/, 'string'],
      [/@escapes/, 'string.escape'],
      [/\\\s*$/, 'string.escape'],
      [/\\./, 'string.escape.invalid'],
      [/"""(?!")/, 'string', '@pop'],
      [/"/, 'string'],
    ],
    mlLiteral: [
      [/[^']+/, 'string'],
      [/'''(?!')/, 'string', '@pop'],
      [/'/, 'string'],
    ],
    whitespace: [
      [/[ \t\r]+/, ''],
      [/#.*$/, 'comment'],
    ],
  },
};

export const tomlConfiguration: Monaco.languages.LanguageConfiguration = {
  comments: { lineComment: '#' },
  brackets: [
    ['[', ']'],
    ['{', '}'],
  ],
  autoClosingPairs: [
    { open: '[', close: ']' },
    { open: '{', close: '}' },
    { open: '"', close: '"', notIn: ['string'] },
    { open: "'", close: "'", notIn: ['string'] },
  ],
  surroundingPairs: [
    { open: '"', close: '"' },
    { open: "'", close: "'" },
    { open: '[', close: ']' },
  ],
};
