/**
 * WebAuthn challenges, kept in the database so every process sees them spent: a random value handed out with the
 * options, stored as its SHA-256, alive five minutes, and deleted by whichever check comes first (a conditional delete,
 * so two checks of one challenge race to one). A registration challenge is bound to the account and the session that
 * asked for it after sudo; a sign-in challenge to nobody, since nobody is signed in yet.
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { HttpError, badInput } from '../http/errors.js';
import { sha256Hex } from '../lib/ids.js';

export const CHALLENGE_TTL_MS = 5 * 60_000;
export type ChallengePurpose = 'register' | 'sign_in';

const spent = () => new HttpError(400, 'invalid_grant', 'This passkey request has expired or was used already. Please try again.');

/** A fresh challenge (base64url) for `purpose`; expired ones go on the way, so the table stays small without a job. */
export async function issueChallenge(ctx: AppContext, purpose: ChallengePurpose, owner?: { userId: string; sessionId: string }): Promise<string> {
  const now = ctx.clock.now();
  const challenge = randomBytes(32).toString('base64url');
  await ctx.db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
  await ctx.db
    .insertInto('passkey_challenges')
    .values({ id: sha256Hex(challenge), purpose, user_id: owner?.userId ?? null, session_id: owner?.sessionId ?? null, expires_at: now + CHALLENGE_TTL_MS, created_at: now })
    .execute();
  return challenge;
}

/** The challenge a browser signed, read from its clientDataJSON (base64url of JSON); invalid_argument when unreadable. */
export function signedChallenge(clientDataJSON: unknown): string {
  try {
    const data = JSON.parse(Buffer.from(String(clientDataJSON), 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof data.challenge === 'string' && data.challenge.length > 0 && data.challenge.length <= 200) return data.challenge;
  } catch {
    // Said below, as for a missing field.
  }
  throw badInput('The credential is malformed: its client data carries no challenge.');
}

/**
 * Spends the challenge: true once for a live one of `purpose` (and of `owner`, for a registration); every other case,
 * a second use included, answers invalid_grant. A challenge of another session is not spent by the attempt.
 */
export async function spendChallenge(ctx: AppContext, challenge: string, purpose: ChallengePurpose, owner?: { userId: string; sessionId: string }): Promise<void> {
  let q = ctx.db
    .deleteFrom('passkey_challenges')
    .where('id', '=', sha256Hex(challenge))
    .where('purpose', '=', purpose)
    .where('expires_at', '>', ctx.clock.now());
  if (owner) q = q.where('user_id', '=', owner.userId).where('session_id', '=', owner.sessionId);
  const res = await q.executeTakeFirst();
  if (Number(res.numDeletedRows) !== 1) throw spent();
}
