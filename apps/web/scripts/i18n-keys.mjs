/**
 * The translation keys the code uses, as i18next-parser extracts them with i18next-parser.config.mjs, against the
 * locale files: which keys a locale lacks, and which texts no code names. `node scripts/i18n-keys.mjs` prints both
 * and exits 1 when a key is missing; src/lib/i18n-keys.test.ts runs the same check with the unit tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parser as Parser } from 'i18next-parser';
import config from '../i18next-parser.config.mjs';

const WEB = fileURLToPath(new URL('..', import.meta.url));
const LOCALES = join(WEB, 'src/locales');
const PLURAL = new RegExp(`${config.pluralSeparator}(zero|one|two|few|many|other)$`);

/** The files the config's input names: code under src, tests left out. */
function sources(dir = join(WEB, 'src')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Every key a `t('…')` call of the code names, with the files that name it; and how many calls name no fixed key. */
export function usedKeys() {
  const parser = new Parser({ lexers: config.lexers });
  let dynamic = 0;
  parser.on('warning', () => dynamic++);
  const keys = new Map();
  for (const file of sources()) {
    for (const entry of parser.parse(readFileSync(file, 'utf8'), file)) {
      const key = entry.context ? `${entry.key}${config.contextSeparator}${entry.context}` : entry.key;
      keys.set(key, [...(keys.get(key) ?? []), relative(WEB, file)]);
    }
  }
  return { keys, dynamic };
}

const readLocale = (locale) => JSON.parse(readFileSync(join(LOCALES, `${locale}.json`), 'utf8'));

function flatten(o, prefix = '') {
  return Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flatten(v, `${prefix}${k}${config.keySeparator}`) : [`${prefix}${k}`]));
}

/** The keys of a locale file's texts, a plural form under its base key as well. */
export function localeKeys(locale) {
  return new Set(flatten(readLocale(locale)).flatMap((key) => [key, key.replace(PLURAL, '')]));
}

/** Per locale, the keys the code uses that the locale file lacks (locales lacking none are left out). */
export function missingKeys(used = usedKeys().keys) {
  const missing = {};
  for (const locale of config.locales) {
    const have = localeKeys(locale);
    const lacking = [...used.keys()].filter((k) => !have.has(k)).sort();
    if (lacking.length) missing[locale] = lacking;
  }
  return missing;
}

/** Texts of the first locale that no `t('…')` call names: dead, or named by a key built at run time. */
export function unusedKeys(used = usedKeys().keys) {
  const texts = flatten(readLocale(config.locales[0]));
  return [...new Set(texts.map((k) => k.replace(PLURAL, '')))].filter((k) => !used.has(k)).sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { keys, dynamic } = usedKeys();
  const missing = missingKeys(keys);
  const unused = unusedKeys(keys);
  console.log(`${keys.size} keys named in the code; ${dynamic} calls build their key at run time.`);
  console.log(`${unused.length} texts of ${config.locales[0]} named by no t('…') call (built at run time, or unused):`);
  for (const k of unused) console.log(`  ${k}`);
  for (const [locale, lacking] of Object.entries(missing)) console.log(`${locale} lacks ${lacking.length}: ${lacking.join(', ')}`);
  process.exitCode = Object.keys(missing).length ? 1 : 0;
}
