import { describe, expect, it } from 'vitest';
import { MAX_SAVE_LIMIT, parseSaveLimit, parseWords, shareIdOf } from './share-input';

describe(shareIdOf.name, () => {
  it('reads the id from a link, with or without a query, and from the lines an owner copies', () => {
    expect(shareIdOf('https://drive.example.com/s/k3jwqx2dp9vn8st1ayb7')).toBe('k3jwqx2dp9vn8st1ayb7');
    expect(shareIdOf('  http://127.0.0.1:8080/s/K3JWQX2DP9VN8ST1AYB7?pwd=ab12#top ')).toBe('k3jwqx2dp9vn8st1ayb7');
    expect(shareIdOf('/s/abc123/')).toBe('abc123');
    expect(shareIdOf('Trip\nLink: https://drive.example.com/s/k3jwqx2dp9vn8st1ayb7\nPass code: ab12')).toBe('k3jwqx2dp9vn8st1ayb7');
  });

  it('takes a bare id in any case, and nothing that is neither', () => {
    expect(shareIdOf('k3jwqx2dp9vn8st1ayb7')).toBe('k3jwqx2dp9vn8st1ayb7');
    expect(shareIdOf(' K3jwqx2dp9vn8st1ayb7\n')).toBe('k3jwqx2dp9vn8st1ayb7');
    expect(shareIdOf('')).toBeNull();
    expect(shareIdOf('   ')).toBeNull();
    expect(shareIdOf('summer trip 2026')).toBeNull();
    expect(shareIdOf('https://drive.example.com/drive/shared')).toBeNull();
    expect(shareIdOf('https://drive.example.com/s/')).toBeNull();
    expect(shareIdOf('a'.repeat(65))).toBeNull();
    expect(shareIdOf('k3jw-qx2d')).toBeNull();
  });
});

describe(parseSaveLimit.name, () => {
  it('takes a whole number from 0 up, empty as no limit', () => {
    expect(parseSaveLimit('25')).toEqual({ limit: 25 });
    expect(parseSaveLimit(' 0 ')).toEqual({ limit: 0 });
    expect(parseSaveLimit('')).toEqual({ limit: 0 });
    expect(parseSaveLimit(String(MAX_SAVE_LIMIT))).toEqual({ limit: MAX_SAVE_LIMIT });
  });

  it('refuses what is not a whole number, and more than the contract allows', () => {
    for (const s of ['-1', '2.5', '1e3', 'ten', '1 000']) expect(parseSaveLimit(s), s).toEqual({ error: 'invalid' });
    expect(parseSaveLimit(String(MAX_SAVE_LIMIT + 1))).toEqual({ error: 'tooBig' });
  });
});

describe(parseWords.name, () => {
  it('keeps a word a line, trimmed, in lower case and once, without empty lines', () => {
    expect(parseWords(' Casino \r\n\ncasino\nPirate Bay\n  \n')).toEqual({ words: ['casino', 'pirate bay'] });
    expect(parseWords('')).toEqual({ words: [] });
  });

  it('names a word longer than 64 characters, and refuses more than 1000 words', () => {
    const long = 'x'.repeat(65);
    expect(parseWords(`ok\n${long}`)).toEqual({ error: 'tooLong', word: long });
    expect(parseWords('y'.repeat(64))).toEqual({ words: ['y'.repeat(64)] });
    const many = Array.from({ length: 1001 }, (_, i) => `w${i}`).join('\n');
    expect(parseWords(many)).toEqual({ error: 'tooMany' });
  });
});
