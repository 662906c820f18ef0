/**
 * Entry names that are not UTF-8: a zip written without the UTF-8 flag keeps its names in the code page of the machine
 * that made it (CP437 by the format's rule; Shift-JIS, GBK, Big5… in practice). 7zz on Linux hands those bytes back
 * untouched, so they are decoded here with the encoding the person picks; and since such bytes cannot travel in a
 * process's arguments (Node passes them as UTF-8), 7zz is handed them in a list file (archive-reader.ts).
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

/** White space at either end, which 7zz trims from a list file's line unless the line is quoted. */
const EDGE_SPACE = /^[ \t]|[ \t]$/;

/**
 * Whether 7zz can be asked for a stored name through a list file: it trims the lines it reads, so a name that starts
 * or ends with white space is quoted there (see listFileLine), which a name holding a quote itself cannot be.
 */
export function listFileSafe(raw: Buffer): boolean {
  return raw.length > 0 && !(EDGE_SPACE.test(raw.toString('latin1')) && raw.includes(0x22));
}

/** A stored name as one line of a list file: as it is, or in quotes when white space at an end would be trimmed. */
export function listFileLine(raw: Buffer): Buffer {
  const quote = EDGE_SPACE.test(raw.toString('latin1'));
  return Buffer.concat(quote ? [Buffer.from('"'), raw, Buffer.from('"\n')] : [raw, Buffer.from('\n')]);
}
