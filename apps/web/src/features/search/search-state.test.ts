import { describe, expect, it } from 'vitest';
import { highlightParts, pushHistory, readSearch, writeSearch } from './search-state';
import { loginTarget, safeRedirect } from '../auth/require-auth';
import { matchLocale, pickLocale } from '../../lib/locale';

describe('search state in the route', () => {
  it('round-trips the filters and leaves search mode when empty', () => {
    const qs = writeSearch(new URLSearchParams('x=1'), { name: 'cat', star: true, mimeType: 'image/' }, 'F1');
    expect(qs.get('action')).toBe('search');
    expect(qs.get('x')).toBe('1');
    expect(readSearch(qs)).toEqual({ name: 'cat', star: true, kind: undefined, mimeType: 'image/', platform: undefined });
    const cleared = writeSearch(qs, {});
    expect(cleared.get('action')).toBeNull();
    expect(readSearch(cleared)).toBeNull();
    expect(cleared.get('x')).toBe('1');
  });

  it('keeps the three most recent unique terms', () => {
    let h: string[] = [];
    for (const t of ['a', 'b', 'a', 'c', 'd']) h = pushHistory(h, t);
    expect(h).toEqual(['d', 'c', 'a']);
    expect(pushHistory(h, '   ')).toEqual(h);
  });

  it('highlights every case-insensitive match', () => {
    expect(highlightParts('Cat and cat.jpg', 'CAT')).toEqual([
      { text: 'Cat', hit: true },
      { text: ' and ', hit: false },
      { text: 'cat', hit: true },
      { text: '.jpg', hit: false },
    ]);
  });
});

describe('sign-in redirects', () => {
  it('keeps the original query and the target', () => {
    const to = loginTarget('/all/abc', '?action=search&name=x');
    const qs = new URLSearchParams(to.split('?')[1]);
    expect(to.startsWith('/login?')).toBe(true);
    expect(qs.get('name')).toBe('x');
    expect(qs.get('redirect')).toBe('/all/abc?action=search&name=x');
  });

  it('never follows a redirect off the app', () => {
    expect(safeRedirect('//evil.example/x')).toBe('/all');
    expect(safeRedirect('https://evil.example')).toBe('/all');
    expect(safeRedirect('/\\evil.example')).toBe('/all');
    expect(safeRedirect('/trash')).toBe('/trash');
    expect(safeRedirect(null)).toBe('/all');
  });
});

describe('locale', () => {
  it('matches browser tags to the eleven locales', () => {
    expect(matchLocale('zh-Hant-HK')).toBe('zh-TW');
    expect(matchLocale('zh')).toBe('zh-CN');
    expect(matchLocale('pt-BR')).toBe('pt');
    expect(matchLocale('en-GB')).toBe('en-US');
    expect(matchLocale('fr-FR')).toBeNull();
    expect(pickLocale(null, ['fr-FR', 'ja-JP'])).toBe('ja');
    expect(pickLocale('uk', ['ja-JP'])).toBe('uk');
    expect(pickLocale(null, ['fr'])).toBe('en-US');
  });
});
