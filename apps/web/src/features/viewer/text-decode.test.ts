import { describe, expect, it } from 'vitest';
import { decodeText, legacyEncodingFor } from './text-decode';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('decodeText', () => {
  it('reads UTF-8, dropping a byte order mark', () => {
    expect(decodeText(utf8('\uFEFFhéllo ✓'), false, 'en-US')).toEqual({ text: 'héllo ✓', encoding: 'utf-8' });
  });

  it('drops a character the cut split instead of falling back', () => {
    const bytes = utf8('ab✓');
    expect(decodeText(bytes.subarray(0, bytes.length - 1), true, 'en-US')).toEqual({ text: 'ab', encoding: 'utf-8' });
  });

  it('falls back to the legacy encoding of the reader’s language', () => {
    expect(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), false, 'en-US')).toEqual({ text: 'café', encoding: 'windows-1252' });
    expect(decodeText(new Uint8Array([0xcf, 0xf0, 0xe8]), false, 'ru')).toEqual({ text: 'При', encoding: 'windows-1251' });
    expect(legacyEncodingFor('zh-TW')).toBe('big5');
    expect(legacyEncodingFor('ja')).toBe('shift_jis');
  });

  it('reads UTF-16 with its byte order mark, and calls bytes with NULs binary', () => {
    expect(decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]), false, 'en-US')).toEqual({ text: 'hi', encoding: 'utf-16le' });
    expect(decodeText(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00]), false, 'en-US')).toBeNull();
  });
});
