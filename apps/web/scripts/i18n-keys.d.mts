/** Types of scripts/i18n-keys.mjs, for the unit test that runs it. */

/** Every key a `t('…')` call of the code names, with the files naming it; and how many calls build their key. */
export function usedKeys(): { keys: Map<string, string[]>; dynamic: number };
/** The keys of a locale file's texts, a plural form under its base key as well. */
export function localeKeys(locale: string): Set<string>;
/** Per locale, the keys the code uses that the locale file lacks (locales lacking none are left out). */
export function missingKeys(used?: Map<string, string[]>): Record<string, string[]>;
/** Texts of the first locale that no `t('…')` call names: dead, or named by a key built at run time. */
export function unusedKeys(used?: Map<string, string[]>): string[];
