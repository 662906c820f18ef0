/**
 * Entry names that are not UTF-8: a zip written without the UTF-8 flag keeps its names in the code page of the machine
 * that made it (CP437 by the format's rule; Shift-JIS, GBK, Big5… in practice). 7zz on Linux hands those bytes back
 * untouched, so they are decoded here with the encoding the person picks; and since such bytes cannot travel in a
 * process's arguments, 7zz is asked for the entry by a pattern with `?` for each byte that is not ASCII.
 */

/** The 128 upper characters of IBM code page 437 (not among the encodings TextDecoder knows). */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** TextDecoder's labels for the encodings clients may name. */
const DECODERS: Record<string, string> = {
  shift_jis: 'shift_jis',
  gbk: 'gbk',
  big5: 'big5',
  'euc-kr': 'euc-kr',
  cp866: 'ibm866',
  cp1251: 'windows-1251',
  cp1252: 'windows-1252',
};

/** The encodings a client may name ('' lets Haul decide: UTF-8, else CP437). */
export const ENTRY_ENCODINGS = ['', 'utf-8', 'cp437', ...Object.keys(DECODERS)];

export function knownEncoding(encoding: string): boolean {
  return ENTRY_ENCODINGS.includes(encoding.toLowerCase());
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A stored name as text: UTF-8 when it is valid UTF-8, else decoded with `encoding` (CP437 unless said). */
export function decodeEntryName(raw: Buffer, encoding: string): { name: string; utf8: boolean } {
  try {
    return { name: utf8.decode(raw), utf8: true };
  } catch {
    // Not UTF-8: decoded below.
  }
  const label = DECODERS[encoding.toLowerCase()];
  if (label) return { name: new TextDecoder(label).decode(raw), utf8: false };
  return { name: [...raw].map((b) => (b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80])).join(''), utf8: false };
}

/** A 7-Zip pattern for a name that is not UTF-8: its ASCII bytes as they are, `?` for each other byte. */
export function wildcardFor(raw: Buffer): string {
  return [...raw].map((b) => (b < 0x80 && b !== 0x3f && b !== 0x2a ? String.fromCharCode(b) : '?')).join('');
}

/** Whether `pattern` (as wildcardFor makes: `?` one byte) matches the stored bytes `raw`. */
export function patternMatches(pattern: string, raw: Buffer): boolean {
  if (pattern.length !== raw.length) return false;
  for (let i = 0; i < raw.length; i++) if (pattern[i] !== '?' && pattern.charCodeAt(i) !== raw[i]) return false;
  return true;
}
