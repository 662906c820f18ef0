import { LOCALES } from '@haul/shared/plain';
import { describe, expect, it } from 'vitest';
import { EN_US } from './en-US';
import { MESSAGES } from './index';

const places = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** Words some languages share with English: the product's name, Link, Magnet, Torrent, a colon before the server's words. */
const SAME_EVERYWHERE = new Set(['appName', 'kindHttp', 'kindMagnet', 'kindTorrent', 'cannotFetch', 'limitReached', 'taskFailedWhy']);

describe('the extension’s words', () => {
  it('has every key in every one of the web app’s languages, with the same places to fill', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...LOCALES].sort());
    for (const locale of LOCALES) {
      const table = MESSAGES[locale] as Record<string, string>;
      expect(Object.keys(table).sort(), locale).toEqual(Object.keys(EN_US).sort());
      for (const [key, english] of Object.entries(EN_US)) {
        expect(table[key]!.trim(), `${locale}.${key}`).not.toBe('');
        expect(places(table[key]!), `${locale}.${key}`).toEqual(places(english));
      }
    }
  });

  it('is translated, not English copied', () => {
    for (const locale of LOCALES.filter((l) => l !== 'en-US')) {
      const table = MESSAGES[locale] as Record<string, string>;
      const copied = Object.entries(EN_US).filter(([key, english]) => !SAME_EVERYWHERE.has(key) && table[key] === english).map(([key]) => key);
      expect(copied, locale).toEqual([]);
    }
  });
});
