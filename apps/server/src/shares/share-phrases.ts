/**
 * Share phrases (the seeds' "phrase" of a share request): words an owner picks, such as "summer trip 2026", that a
 * person can type where a share code goes instead of the link. A phrase only finds the share; it is not a secret, so
 * only a link with a pass code may carry one: a guessed phrase still needs the code.
 */
import { SHARE_STATUS } from '@haul/shared';
import type { Db } from '../db/database.js';
import { badInput, HttpError } from '../http/errors.js';

const WORDS = /^[\p{L}\p{N}]+(?: [\p{L}\p{N}]+)*$/u;

/** Lower case, hyphens and runs of spaces as one space: "Summer-Trip  2026" and "summer trip 2026" are the same phrase. */
export function normalisePhrase(raw: string): string {
  return raw.normalize('NFC').toLowerCase().replace(/[\s-]+/gu, ' ').trim();
}

/** A phrase the owner chose, normalised, or invalid_argument: 6 to 64 characters of letters, digits and spaces. */
export function checkPhrase(raw: string): string {
  const phrase = normalisePhrase(raw);
  if ([...phrase].length < 6 || [...phrase].length > 64 || !WORDS.test(phrase)) {
    throw badInput('The phrase must be 6 to 64 characters of letters, digits and spaces.');
  }
  return phrase;
}

/**
 * Makes `phrase` free for `shareId`: a cancelled or expired share lets go of it; a share that still works keeps it and
 * the caller gets already_exists (its owner may be someone else, so nothing more is said).
 */
export async function claimPhrase(trx: Db, phrase: string, shareId: string, now: number): Promise<void> {
  const holder = await trx.selectFrom('shares').select(['id', 'status', 'expires_at']).where('phrase', '=', phrase).executeTakeFirst();
  if (!holder || holder.id === shareId) return;
  const working = holder.status === SHARE_STATUS.OK && (holder.expires_at === null || holder.expires_at > now);
  if (working) throw new HttpError(409, 'already_exists', 'That phrase is taken: choose other words.');
  await trx.updateTable('shares').set({ phrase: null }).where('id', '=', holder.id).execute();
}

/** The share a typed phrase names, if one does. */
export async function shareIdByPhrase(db: Db, typed: string): Promise<string | undefined> {
  const phrase = normalisePhrase(typed);
  if (!phrase || phrase.length > 256) return undefined;
  const row = await db.selectFrom('shares').select('id').where('phrase', '=', phrase).where('status', '!=', SHARE_STATUS.DELETED).executeTakeFirst();
  return row?.id;
}
