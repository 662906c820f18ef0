import { afterEach, describe, expect, it } from 'vitest';
import { pickLocale, setLocale, t } from './i18n';

afterEach(() => setLocale('en-US'));

describe('pickLocale', () => {
  it('takes the first of the browser’s languages it has, as the web app does', () => {
    expect(pickLocale(['fr-FR', 'pt-BR', 'en'])).toBe('pt');
    expect(pickLocale(['zh-HK'])).toBe('zh-TW');
    expect(pickLocale(['zh'])).toBe('zh-CN');
    expect(pickLocale(['en-GB'])).toBe('en-US');
    expect(pickLocale(['fr', 'de'])).toBe('en-US');
  });
});

describe('t', () => {
  it('fills the places of a sentence in the chosen language', () => {
    expect(t('addedMany', { n: 3, folder: 'Films' })).toBe('3 links added to Haul, into Films.');
    setLocale('ja');
    expect(t('addedMany', { n: 3, folder: 'Films' })).toBe('3 件のリンクを Haul の Films に追加しました。');
  });
});
