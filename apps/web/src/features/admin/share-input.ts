/** What an operator types on the Shares page, read before anything is sent: a share's link or id, a save limit, the blocked words. */

/** The most saves a limit may allow (the contract's bound). */
export const MAX_SAVE_LIMIT = 1_000_000;
/** The longest blocked word, and how many the list may hold (the contract's bounds). */
export const MAX_WORD_LENGTH = 64;
export const MAX_WORDS = 1000;

const ID = /^[a-z0-9]{1,64}$/i;

/**
 * The share id in what was pasted: a link (…/s/<id>, with or without a query or the owner's copied lines around it) or
 * the id itself, in lower case as the server keeps it; null when it is neither.
 */
export function shareIdOf(text: string): string | null {
  const s = text.trim();
  const linked = /\/s\/([a-z0-9]{1,64})(?![a-z0-9])/i.exec(s)?.[1];
  if (linked) return linked.toLowerCase();
  return ID.test(s) ? s.toLowerCase() : null;
}

/** A save limit typed as a whole number (empty is 0, no limit); else why not. */
export function parseSaveLimit(text: string): { limit: number } | { error: 'invalid' | 'tooBig' } {
  const s = text.trim();
  if (s === '') return { limit: 0 };
  if (!/^\d+$/.test(s)) return { error: 'invalid' };
  const n = Number(s);
  return n > MAX_SAVE_LIMIT ? { error: 'tooBig' } : { limit: n };
}

/**
 * The blocked words, one a line, as the server will keep them (trimmed, lower case, each once, empty lines left out);
 * else the first word that is too long, or too many words.
 */
export function parseWords(text: string): { words: string[] } | { error: 'tooLong'; word: string } | { error: 'tooMany' } {
  const words = [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((w) => w.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const long = words.find((w) => w.length > MAX_WORD_LENGTH);
  if (long !== undefined) return { error: 'tooLong', word: long };
  if (words.length > MAX_WORDS) return { error: 'tooMany' };
  return { words };
}
