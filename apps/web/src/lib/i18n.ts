/** i18next with en-US bundled and every other locale loaded on demand, so a first visit downloads one language. */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@haul/shared';
import enUS from '../locales/en-US.json';
import { LOCALE_KEY, pickLocale } from './locale';

const loaders = import.meta.glob<{ default: Record<string, unknown> }>(['../locales/*.json', '!../locales/en-US.json']);

async function load(lng: Locale): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  const loader = loaders[`../locales/${lng}.json`];
  if (loader) i18n.addResourceBundle(lng, 'translation', (await loader()).default);
}

/** Switches the language, remembers it, and sets <html lang> for the browser's own text and hyphenation. */
export async function changeLocale(lng: Locale): Promise<void> {
  await load(lng);
  localStorage.setItem(LOCALE_KEY, lng);
  document.documentElement.lang = lng;
  await i18n.changeLanguage(lng);
}

export async function initI18n(): Promise<void> {
  const lng = pickLocale(localStorage.getItem(LOCALE_KEY), navigator.languages ?? [navigator.language]);
  await i18n.use(initReactI18next).init({
    resources: { 'en-US': { translation: enUS } },
    lng: 'en-US',
    fallbackLng: 'en-US',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  if (lng !== 'en-US') await load(lng);
  document.documentElement.lang = lng;
  await i18n.changeLanguage(lng);
}

export default i18n;
