/**
 * Which code page to read a zip's non-UTF-8 names in before the person picks one: the one Windows' own zip writes
 * (the OEM code page) for the interface's language. Names that are valid UTF-8 are read as UTF-8 whatever this says.
 */

/** The server's encoding name for `language` ('' lets the server read CP437, the zip format's rule). */
export function defaultNameEncoding(language: string): string {
  const l = language.toLowerCase();
  if (/^zh-(tw|hk|mo)|^zh-hant/.test(l)) return 'big5';
  if (l.startsWith('zh')) return 'gbk';
  if (l.startsWith('ja')) return 'shift_jis';
  if (l.startsWith('ko')) return 'euc-kr';
  if (l.startsWith('ru') || l.startsWith('uk')) return 'cp866';
  return '';
}
