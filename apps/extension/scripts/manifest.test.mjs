// What each browser's manifest asks for, and the words it takes from _locales/ (Mozilla's linter reads the whole
// Firefox build in firefox-lint.test.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifest } from './manifest.mjs';

const LOCALES_DIR = join(import.meta.dirname, '..', '_locales');

describe('manifest', () => {
  it('asks for no site and no downloads up front: both are optional, for the switches of catching', () => {
    for (const browser of ['chromium', 'firefox']) {
      const m = manifest(browser, '1.2.3');
      expect(m.host_permissions).toBeUndefined();
      expect(m.permissions).not.toContain('downloads');
      expect(m.optional_permissions).toEqual(['downloads']);
      expect(m.optional_host_permissions).toEqual(['http://*/*', 'https://*/*']);
      expect(m.content_scripts).toBeUndefined();
    }
  });

  it('gives Firefox an event page, an add-on id and its data collection answer', () => {
    const m = manifest('firefox', '1.2.3');
    expect(m.background).toEqual({ scripts: ['background.js'] });
    expect(m.browser_specific_settings.gecko).toMatchObject({ id: 'send-to-haul@haul', data_collection_permissions: { required: ['none'] } });
    expect(manifest('chromium', '1.2.3').background).toEqual({ service_worker: 'background.js' });
  });

  it('names and describes itself in every language of _locales, within the stores’ lengths', () => {
    const m = manifest('chromium', '1.2.3');
    expect(m.name).toBe('__MSG_extName__');
    const locales = readdirSync(LOCALES_DIR);
    expect(locales).toContain(m.default_locale);
    expect(locales.sort()).toEqual(['en', 'es', 'id', 'ja', 'ko', 'ms', 'pt_BR', 'pt_PT', 'ru', 'uk', 'zh_CN', 'zh_TW']);
    for (const locale of locales) {
      const words = JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'messages.json'), 'utf8'));
      expect(Object.keys(words).sort(), locale).toEqual(['extDescription', 'extName']);
      expect(words.extName.message.length, locale).toBeLessThanOrEqual(45);
      expect(words.extDescription.message.length, locale).toBeLessThanOrEqual(132);
    }
  });
});
