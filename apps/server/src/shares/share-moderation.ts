/**
 * What an operator (or a share's owner) may hold a share to: a status an operator sets with a reason the owner reads,
 * effective at the visitor's next request (every visit and content link reads the row); a save limit; and the blocked
 * words a share's title or phrase may not hold.
 */
import { SHARE_STATUS, type ShareStatus } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { ShareRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';

/** The statuses an operator may put a share in (OK gives it back). */
export const MODERATED: readonly ShareStatus[] = [SHARE_STATUS.AUDITING, SHARE_STATUS.PROHIBITED, SHARE_STATUS.SENSITIVE_RESOURCE];

/** Whether a share was saved as often as its owner allows. */
export const restoresUsedUp = (share: Pick<ShareRow, 'restore_limit' | 'restore_count'>): boolean => share.restore_limit > 0 && share.restore_count >= share.restore_limit;

/** The operator's blocked words (lower case). */
export async function blockedWords(db: Db): Promise<string[]> {
  return (await db.selectFrom('blocked_words').select('word').orderBy('word').execute()).map((r) => r.word);
}

/** Replaces the blocked words: trimmed, lower case, each once. */
export async function setBlockedWords(db: Db, words: string[], now: number): Promise<string[]> {
  const clean = [...new Set(words.map((w) => w.trim().toLowerCase()).filter(Boolean))];
  if (clean.some((w) => w.length > 64)) throw new HttpError(400, 'invalid_argument', 'A blocked word has at most 64 characters.');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('blocked_words').execute();
    if (clean.length) await trx.insertInto('blocked_words').values(clean.map((word) => ({ word, created_at: now }))).execute();
  });
  return clean.sort();
}

/** Refuses a title or phrase holding a blocked word (SENSITIVE_WORD), naming no word: the list is the operator's. */
export async function refuseBlockedWords(db: Db, texts: (string | null | undefined)[]): Promise<void> {
  const words = await blockedWords(db);
  if (!words.length) return;
  const hay = texts.filter(Boolean).join('\n').toLowerCase();
  if (words.some((w) => hay.includes(w))) {
    throw new HttpError(400, 'invalid_argument', 'The title or phrase holds a word this server does not allow in shares.', [{ share_status: SHARE_STATUS.SENSITIVE_WORD }]);
  }
}
