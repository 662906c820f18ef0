import { describe, expect, it } from 'vitest';
import { defaultNameEncoding } from './name-encodings';
import { NAME_ENCODINGS } from './archives-api';

describe(defaultNameEncoding.name, () => {
  it('picks the code page Windows zips names in for the interface language', () => {
    expect(defaultNameEncoding('zh-CN')).toBe('gbk');
    expect(defaultNameEncoding('zh-TW')).toBe('big5');
    expect(defaultNameEncoding('ja')).toBe('shift_jis');
    expect(defaultNameEncoding('ko')).toBe('euc-kr');
    expect(defaultNameEncoding('ru')).toBe('cp866');
    expect(defaultNameEncoding('uk')).toBe('cp866');
    expect(defaultNameEncoding('en-US')).toBe('');
    expect(defaultNameEncoding('id')).toBe('');
  });

  it('only names encodings the page offers', () => {
    const offered = new Set(NAME_ENCODINGS.map(([v]) => v));
    for (const l of ['zh-CN', 'zh-TW', 'ja', 'ko', 'ru', 'uk']) expect(offered.has(defaultNameEncoding(l))).toBe(true);
  });
});
