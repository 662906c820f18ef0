import { describe, expect, it } from 'vitest';
import { categoryOf, isAudio, isImage, isTorrent, isVideo } from './file-type.js';
import { formatCount, formatDuration, formatSize } from './format.js';
import { checkName, cleanName, randomSuffix, withOldSuffix, withSuffix } from './names.js';
import { matchesSearch } from './search.js';
import { isEmail, isHttpUrl } from './validate.js';

describe('file types', () => {
  it('detects by extension or MIME type', () => {
    expect(isVideo('a.MKV')).toBe(true);
    expect(isVideo('x', 'video/mp4')).toBe(true);
    expect(isVideo('x', 'video/webp_pipe')).toBe(false);
    expect(isImage('p.jpe')).toBe(true);
    expect(isAudio('s.flac')).toBe(true);
    expect(isTorrent('x', 'application/x-bittorrent')).toBe(true);
    expect(categoryOf('book.epub')).toBe('other');
    expect(categoryOf('a.7z')).toBe('zip');
    expect(categoryOf('a.torrent')).toBe('bt');
  });
});

describe('formatting', () => {
  it('formats sizes in steps of 1024 with one decimal', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize('1073741824')).toBe('1.0 GB');
    expect(formatSize(2 ** 50 * 3)).toBe('3.0 PB');
  });
  it('formats the number of a size in the given locale', () => {
    expect(formatSize(1536, 1, 'ru')).toBe('1,5 KB');
    expect(formatSize(1536, 1, 'en-US')).toBe('1.5 KB');
  });
  it('formats durations with leading zero hours trimmed', () => {
    expect(formatDuration(187)).toBe('03:07');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
  it('caps counts', () => {
    expect(formatCount(999999)).toBe('999999');
    expect(formatCount(1000000)).toBe('999999+');
  });
});

describe('names', () => {
  it('normalises to NFC and names each problem', () => {
    expect(checkName('Cafe\u0301')).toEqual({ name: 'Caf\u00e9', problem: null });
    expect(checkName(' ').problem).toBe('empty');
    expect(checkName('..').problem).toBe('dot');
    expect(checkName('a/b').problem).toBe('slash');
    expect(checkName('a\nb').problem).toBe('control');
    expect(checkName('\u00e9'.repeat(128)).problem).toBe('too_long');
    expect(checkName('\u00e9'.repeat(127)).problem).toBe(null);
  });
  it('refuses names that read as something else, and keeps the joiners scripts need', () => {
    // "invoice\u202Egpj.exe" shows as "invoiceexe.jpg".
    for (const c of ['\u202e', '\u202a', '\u2066', '\u2069', '\u200b', '\u2060', '\ufeff']) {
      expect(checkName(`invoice${c}gpj.exe`).problem).toBe('invisible');
    }
    expect(checkName('\u0645\u06cc\u200c\u062e\u0648\u0627\u0645.txt').problem).toBe(null);
    expect(checkName('\u{1F468}\u200d\u{1F469}\u200d\u{1F467}.png').problem).toBe(null);
  });
  it('cleans names from strangers into valid ones', () => {
    expect(cleanName('invoice\u202egpj.exe', 'x')).toBe('invoicegpj.exe');
    expect(cleanName('a/b\\c\n.txt', 'x')).toBe('a_b_c.txt');
    expect(cleanName(' .. ', 'fallback')).toBe('fallback');
    expect(cleanName('\u200b', 'fallback')).toBe('fallback');
    const long = cleanName('\u{1F600}'.repeat(100), 'x');
    expect(checkName(long).problem).toBe(null);
    expect(Array.from(long).every((c) => c === '\u{1F600}')).toBe(true);
  });
  it('keeps a suffixed name within the byte limit, cutting whole characters from the base', () => {
    const full = `${'\u00e9'.repeat(125)}.jpg`; // 254 bytes
    const named = withSuffix(full, '12');
    expect(new TextEncoder().encode(named).length).toBeLessThanOrEqual(255);
    expect(named.endsWith(' (12).jpg')).toBe(true);
    expect(checkName(named).problem).toBe(null);
    const hugeExt = withSuffix(`a.${'x'.repeat(252)}`, '3');
    expect(checkName(hugeExt).problem).toBe(null);
  });
  it('adds the collision suffix before the extension', () => {
    expect(withSuffix('photo.jpg', 'A1F3')).toBe('photo (A1F3).jpg');
    expect(withSuffix('Folder', 'A1F3')).toBe('Folder (A1F3)');
    expect(withSuffix('.profile', '1')).toBe('.profile (1)');
    expect(withOldSuffix('photo.jpg', '1')).toBe('photo(1).jpg');
    expect(randomSuffix()).toMatch(/^[0-9A-F]{4}$/);
  });
});

describe('search and validation', () => {
  const file = { name: 'Holiday.MP4', star: 1, kind: 'drive#file', mime_type: 'video/mp4', params: { platform: 'youtube' } };
  it('matches name (case-insensitive), star, kind, mime prefix and platform', () => {
    expect(matchesSearch(file, { name: 'holi' })).toBe(true);
    expect(matchesSearch(file, { name: 'x' })).toBe(false);
    expect(matchesSearch(file, { star: true, kind: 'file', mimeType: 'video/', platform: 'youtube' })).toBe(true);
    expect(matchesSearch({ ...file, star: 0 }, { star: true })).toBe(false);
    expect(matchesSearch(file, { platform: 'tiktok' })).toBe(false);
  });
  it('checks emails and links as the clients do', () => {
    expect(isEmail('first.last+tag@mail.example.com')).toBe(true);
    expect(isEmail('no-at-sign.com')).toBe(false);
    expect(isEmail('a@localhost')).toBe(false);
    expect(isHttpUrl('https://x.y/z')).toBe(true);
    expect(isHttpUrl('magnet:?xt=urn:btih:abc')).toBe(false);
  });
});
