/** Picks the interface language: the remembered choice, else the browser's, else en-US. */
import { LOCALES } from '@haul/shared/plain';
import type { Locale } from '@haul/shared';

export const LOCALE_KEY = 'haul.locale';

export const LOCALE_NAMES: Record<Locale, string> = {
  'en-US': 'English',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  ja: '日本語',
  ko: '한국어',
  id: 'Bahasa Indonesia',
  ms: 'Bahasa Melayu',
  es: 'Español',
  pt: 'Português',
  ru: 'Русский',
  uk: 'Українська',
};

/** Maps a BCP 47 tag to one of ours: exact, then Chinese by script or region, then by language. */
export function matchLocale(tag: string): Locale | null {
  const lower = tag.toLowerCase();
  const exact = LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const [lang, ...rest] = lower.split('-');
  if (lang === 'zh') return rest.some((p) => p === 'hant' || p === 'tw' || p === 'hk' || p === 'mo') ? 'zh-TW' : 'zh-CN';
  if (lang === 'en') return 'en-US';
  return LOCALES.find((l) => l.split('-')[0] === lang) ?? null;
}

export function pickLocale(saved: string | null, browser: readonly string[]): Locale {
  if (saved) {
    const m = matchLocale(saved);
    if (m) return m;
  }
  for (const tag of browser) {
    const m = matchLocale(tag);
    if (m) return m;
  }
  return 'en-US';
}
