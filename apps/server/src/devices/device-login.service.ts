/**
 * Device sign-in (RFC 8628). The device gets a secret device code and a short user code; a signed-in person approves
 * the user code; the device's next poll gets the tokens of a new session. Both codes are stored as hashes. The pace of
 * polling lives in the row (slow_down adds 5 s for good, §3.5), and the approval is claimed once with a conditional
 * update, so two processes answering polls never hand out two sessions.
 */
import { createHmac, randomInt } from 'node:crypto';
import { DEVICE_CODE_TTL_SECONDS, type TokenResponse } from '@haul/shared';
import type { AppContext } from '../context.js';
import { HttpError, notFound } from '../http/errors.js';
import { publicUrl } from '../http/public-url.js';
import { newId, newSecret, sha256Hex } from '../lib/ids.js';
import { toRfc3339 } from '../lib/time.js';
import { clearAttempts, clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { issueTokens } from '../accounts/tokens.js';
import type { ClientInfo } from '../http/client-info.js';
import { type Caller } from '../http/access-tokens.js';
import { deviceName } from './device-name.js';

/** No vowels, nothing that reads as a digit (§6.1): 20^8 codes, and no words spelled by accident. */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const CODE_LENGTH = 8;
const SLOW_DOWN_MS = 5000;
const HOUR = 3600_000;
/** Device sign-ins started from one network: enough for a household, not for filling the table. */
const START_PER_CLIENT: AttemptPolicy = { free: 30, baseDelayMs: 60_000, maxDelayMs: HOUR, forgetMs: HOUR };
/** Wrong user codes typed by one account: a few typos free, then a doubling wait, so guessing a live code is hopeless. */
const GUESS_PER_USER: AttemptPolicy = { free: 10, baseDelayMs: 2000, maxDelayMs: HOUR, forgetMs: 24 * HOUR };

/** The code as people type it: case, spaces and dashes dropped. */
export const normalUserCode = (s: string) => s.toUpperCase().replace(/[^A-Z]/g, '');
/** Shown in two groups of four. */
const showUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

function userCodeHash(ctx: AppContext, code: string): string {
  // Keyed: the user code space is small enough that a plain hash of a leaked table could be reversed.
  return createHmac('sha256', ctx.secrets.tokenKey).update(`device-user-code:${normalUserCode(code)}`).digest('hex');
}

const pollError = (error: 'authorization_pending' | 'slow_down' | 'expired_token' | 'access_denied' | 'invalid_grant', message: string) =>
  new HttpError(400, error, message);

export async function startDeviceLogin(ctx: AppContext, input: { client_name?: string }, client: ClientInfo) {
  const now = ctx.clock.now();
  const wait = await takeAttempt(ctx.db, now, [[`device-start|${clientKey(client.ip)}`, START_PER_CLIENT]]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many device sign-ins from this network.');
  const deviceCode = newSecret();
  const userCode = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  const intervalMs = ctx.config.devicePollIntervalSeconds * 1000;
  await ctx.db
    .insertInto('device_logins')
    .values({
      id: newId(),
      device_code_hash: sha256Hex(deviceCode),
      user_code_hash: userCodeHash(ctx, userCode),
      status: 'pending',
      user_id: null,
      client_name: (input.client_name ?? '').trim().slice(0, 100),
      ip: clientKey(client.ip),
      user_agent: client.userAgent.slice(0, 300),
      interval_ms: intervalMs,
      last_polled_at: null,
      created_at: now,
      expires_at: now + DEVICE_CODE_TTL_SECONDS * 1000,
    })
    .execute();
  const page = `${publicUrl(ctx)}/drive/qr-login`;
  return {
    device_code: deviceCode,
    user_code: showUserCode(userCode),
    verification_uri: page,
    verification_uri_complete: `${page}?code=${showUserCode(userCode)}`,
    short_uri_complete: `${page}?code=${userCode}`,
    expires_in: DEVICE_CODE_TTL_SECONDS,
    interval: Math.ceil(intervalMs / 1000),
  };
}

/** One poll of the token endpoint with a device code: the tokens once approved, else the RFC's error. */
export async function pollDeviceLogin(ctx: AppContext, deviceCode: string, client: ClientInfo): Promise<TokenResponse> {
  const now = ctx.clock.now();
  const row = await ctx.db.selectFrom('device_logins').selectAll().where('device_code_hash', '=', sha256Hex(deviceCode)).executeTakeFirst();
  if (!row) throw pollError('invalid_grant', 'This device code is not known. Start the sign-in again.');
  if (row.expires_at <= now) throw pollError('expired_token', 'The code expired before it was approved. Start the sign-in again.');
  if (row.last_polled_at !== null && now - row.last_polled_at < row.interval_ms) {
    await ctx.db.updateTable('device_logins').set({ interval_ms: row.interval_ms + SLOW_DOWN_MS, last_polled_at: now }).where('id', '=', row.id).execute();
    throw pollError('slow_down', `Polling too fast: wait ${Math.ceil((row.interval_ms + SLOW_DOWN_MS) / 1000)} seconds between polls.`);
  }
  await ctx.db.updateTable('device_logins').set({ last_polled_at: now }).where('id', '=', row.id).execute();
  if (row.status === 'pending') throw pollError('authorization_pending', 'Waiting for the sign-in to be approved.');
  if (row.status === 'denied') throw pollError('access_denied', 'The sign-in was refused.');
  if (row.status !== 'approved' || !row.user_id) throw pollError('invalid_grant', 'This device code was used already. Start the sign-in again.');
  const claimed = await ctx.db.updateTable('device_logins').set({ status: 'used' }).where('id', '=', row.id).where('status', '=', 'approved').executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw pollError('invalid_grant', 'This device code was used already. Start the sign-in again.');
  return issueTokens(ctx, row.user_id, { ip: client.ip, userAgent: row.user_agent || client.userAgent, deviceName: row.client_name, parentSessionId: row.approved_session_id });
}

/** The waiting sign-in a user code names, counting a wrong code against the account. */
async function findPending(ctx: AppContext, userId: string, userCode: string) {
  const now = ctx.clock.now();
  const key = `device-code|u:${userId}`;
  const row = normalUserCode(userCode).length === CODE_LENGTH
    ? await ctx.db
        .selectFrom('device_logins')
        .selectAll()
        .where('user_code_hash', '=', userCodeHash(ctx, userCode))
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirst()
    : undefined;
  if (row) return row;
  const wait = await takeAttempt(ctx.db, now, [[key, GUESS_PER_USER]]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many wrong codes.');
  throw notFound('No device is waiting with this code. Check the code on the device; it may have expired.');
}

export async function deviceLoginInfo(ctx: AppContext, userId: string, userCode: string) {
  const row = await findPending(ctx, userId, userCode);
  return {
    client_name: deviceName(row.user_agent, row.client_name),
    user_agent: row.user_agent,
    ip: row.ip,
    created_time: toRfc3339(row.created_at),
    expires_time: toRfc3339(row.expires_at),
  };
}

/** Approves or refuses a waiting device sign-in; an approved device's session is born of the approving one. */
export async function answerDeviceLogin(ctx: AppContext, caller: Pick<Caller, 'userId' | 'sessionId'>, userCode: string, approve: boolean): Promise<void> {
  const userId = caller.userId;
  const row = await findPending(ctx, userId, userCode);
  const done = await ctx.db
    .updateTable('device_logins')
    .set({ status: approve ? 'approved' : 'denied', user_id: userId, approved_session_id: approve ? caller.sessionId : null })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw notFound('This code was answered already.');
  await clearAttempts(ctx.db, [`device-code|u:${userId}`]);
}

/** Drops device sign-ins an hour past their end; run by the hourly purge. */
export async function purgeDeviceLogins(ctx: AppContext): Promise<number> {
  const r = await ctx.db.deleteFrom('device_logins').where('expires_at', '<', ctx.clock.now() - HOUR).executeTakeFirst();
  return Number(r.numDeletedRows);
}
