/**
 * The extension's words in the web app's eleven languages: one table a language (lib/messages/), the language picked
 * from the browser's as the web app picks it. Pages mark their words with data-i18n attributes; code calls t().
 * The manifest's name and description come from _locales/ (chrome.i18n), which the browser reads before any script.
 */
import { LOCALES, type Locale } from '@haul/shared/plain';
import { MESSAGES, type MessageKey } from './messages';

/** Maps a BCP 47 tag to one of ours: exact, then Chinese by script or region, then by language (as the web app does). */
export function matchLocale(tag: string): Locale | null {
  const lower = tag.toLowerCase();
  const exact = LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const [lang, ...rest] = lower.split('-');
  if (lang === 'zh') return rest.some((p) => p === 'hant' || p === 'tw' || p === 'hk' || p === 'mo') ? 'zh-TW' : 'zh-CN';
  if (lang === 'en') return 'en-US';
  return LOCALES.find((l) => l.split('-')[0] === lang) ?? null;
}

/** The first of the browser's languages we have, else en-US. */
export function pickLocale(tags: readonly string[]): Locale {
  for (const tag of tags) {
    const m = matchLocale(tag);
    if (m) return m;
  }
  return 'en-US';
}

const browserTags = (): string[] => {
  const tags = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  return tags.filter(Boolean);
};

let locale: Locale = pickLocale(browserTags());

/** The language the words are in; tests set it. */
export const currentLocale = (): Locale => locale;
export const setLocale = (l: Locale): void => void (locale = l);

/** The sentence for `key` in the current language, with {name} places filled from `vars`. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  const text = MESSAGES[locale][key] ?? MESSAGES['en-US'][key];
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all));
}

/**
 * Puts the current language's words into a page: data-i18n (text), data-i18n-placeholder, data-i18n-label
 * (aria-label) and data-i18n-title, and the document's lang.
 */
export function localizePage(root: Document = document): void {
  root.documentElement.lang = locale;
  const each = (attr: string, put: (el: HTMLElement, text: string) => void) =>
    root.querySelectorAll<HTMLElement>(`[${attr}]`).forEach((el) => put(el, t(el.getAttribute(attr) as MessageKey)));
  each('data-i18n', (el, text) => (el.textContent = text));
  each('data-i18n-placeholder', (el, text) => el.setAttribute('placeholder', text));
  each('data-i18n-label', (el, text) => el.setAttribute('aria-label', text));
  each('data-i18n-title', (el, text) => (el.title = text));
  const title = root.querySelector('title[data-i18n]');
  if (title) root.title = title.textContent ?? '';
}
