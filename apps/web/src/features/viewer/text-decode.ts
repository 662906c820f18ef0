/**
 * Turns the first bytes of a file into text for the viewer: UTF-8 (or UTF-16 with its byte order mark) when the bytes
 * are valid as such, else the legacy encoding most used for the reader's language. Bytes with NULs are not text.
 */

/** The legacy encoding people writing in this language most likely saved text in. */
export function legacyEncodingFor(language: string): string {
  const l = language.toLowerCase();
  if (l.startsWith('zh-tw') || l.startsWith('zh-hk') || l.startsWith('zh-hant')) return 'big5';
  if (l.startsWith('zh')) return 'gb18030';
  if (l.startsWith('ja')) return 'shift_jis';
  if (l.startsWith('ko')) return 'euc-kr';
  if (l.startsWith('ru') || l.startsWith('uk') || l.startsWith('bg') || l.startsWith('sr')) return 'windows-1251';
  return 'windows-1252';
}

export interface DecodedText {
  text: string;
  encoding: string;
}

/** How many bytes at the end belong to a UTF-8 character that `cut` split (0 when none). */
function splitTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) !== 0x80) {
      // A lead byte: how long its character should be.
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return need > back ? back : 0;
    }
  }
  return 0;
}

/**
 * The text in `bytes`, or null when they look binary. `cut` says the bytes stop before the file's end, so a character
 * split at the end is dropped rather than taken for bad UTF-8.
 */
export function decodeText(bytes: Uint8Array, cut: boolean, language: string): DecodedText | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be' };
  if (bytes.subarray(0, 8192).includes(0)) return null;
  const whole = cut ? bytes.subarray(0, bytes.length - splitTail(bytes)) : bytes;
  try {
    // The decoder drops a byte order mark by itself.
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(whole), encoding: 'utf-8' };
  } catch {
    const encoding = legacyEncodingFor(language);
    return { text: new TextDecoder(encoding).decode(bytes), encoding };
  }
}
