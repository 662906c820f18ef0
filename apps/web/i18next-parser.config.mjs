/**
 * Translation keys, extracted from the code by i18next-parser. scripts/i18n-keys.mjs reads the code with these
 * lexers and compares the keys with src/locales/*.json: `npm run i18n:check -w @haul/web` lists the keys a locale
 * lacks and the texts no code names, and the unit test src/lib/i18n-keys.test.ts fails on a missing key.
 * `npm run i18n:extract -w @haul/web` writes the extracted catalogs to a scratch folder (the tool would reorder the
 * locale files it wrote to). Keys built at run time (`errors.${name}`) are not seen: write each out in a `t('…')`
 * call, as lib/error-texts.ts does.
 */
export default {
  input: ['src/**/*.{ts,tsx}', '!src/**/*.test.{ts,tsx}'],
  output: 'node_modules/.cache/i18n-extracted/$LOCALE.json',
  locales: ['en-US', 'zh-CN', 'zh-TW', 'ja', 'ko', 'id', 'ms', 'es', 'pt', 'ru', 'uk'],
  defaultNamespace: 'translation',
  keySeparator: '.',
  namespaceSeparator: false,
  pluralSeparator: '_',
  contextSeparator: '_',
  keepRemoved: true,
  createOldCatalogs: false,
  sort: false,
  indentation: 2,
  lineEnding: 'lf',
  defaultValue: '',
  lexers: {
    ts: [{ lexer: 'JavascriptLexer', functions: ['t'] }],
    tsx: [{ lexer: 'JsxLexer', functions: ['t'] }],
  },
};
