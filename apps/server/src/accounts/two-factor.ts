/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238, via otpauth): set up (a secret shown once as a QR
 * code), proven by a first code before it counts, then asked for at password sign-in and for every sudo token.
 * A code works once (the last accepted time step is kept); ten one-time recovery codes stand in for a lost phone.
 * Guessing is limited per account in the database.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { clearAttempts, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';

const PERIOD_MS = 30_000;
const RECOVERY_CODES = 10;
/** Someone with the password guessing codes: 5 free, then a doubling wait; three codes are valid at once at most. */
const CODE_GUESSES: AttemptPolicy = { free: 5, baseDelayMs: 30_000, maxDelayMs: 3600_000, forgetMs: 24 * 3600_000 };

const twoFactorRequired = () =>
  new HttpError(403, 'two_factor_required', 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.');
const wrongCode = () => new HttpError(400, 'invalid_grant', 'The code is incorrect or was used already.');

function secretKey(ctx: AppContext): Buffer {
  return Buffer.from(hkdfSync('sha256', ctx.secrets.tokenKey, Buffer.alloc(0), 'haul-two-factor-secret', 32));
}

function seal(ctx: AppContext, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(ctx), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

function open(ctx: AppContext, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', secretKey(ctx), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
}

const totpOf = (secret: string, label = '') => new TOTP({ issuer: 'Haul', label, secret: Secret.fromBase32(secret), digits: 6, period: PERIOD_MS / 1000 });

/** Recovery codes as people copy them: "k7q2-9xmd-p4ct", compared without dashes, spaces or case. */
const normalRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const recoveryHash = (ctx: AppContext, code: string) => createHmac('sha256', ctx.secrets.tokenKey).update(`recovery:${normalRecovery(code)}`).digest('hex');

function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const raw = [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join('');
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
}

export async function twoFactorEnabled(ctx: AppContext, userId: string): Promise<boolean> {
  const row = await ctx.db.selectFrom('two_factor').select('enabled_at').where('user_id', '=', userId).executeTakeFirst();
  return !!row?.enabled_at;
}

export async function twoFactorStatus(ctx: AppContext, userId: string): Promise<{ enabled: boolean; recovery_codes_left: number }> {
  const enabled = await twoFactorEnabled(ctx, userId);
  const left = enabled
    ? await ctx.db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow()
    : { n: 0 };
  return { enabled, recovery_codes_left: Number(left.n) };
}

/** Starts (or restarts) setting up: a new secret, not yet asked for; the answer is the only time it is shown. */
export async function beginTwoFactor(ctx: AppContext, userId: string, email: string): Promise<{ secret: string; otpauth_uri: string }> {
  if (await twoFactorEnabled(ctx, userId)) throw new HttpError(409, 'already_exists', 'Two-factor sign-in is on already. Turn it off first to move it to another app.');
  const secret = new Secret({ size: 20 }).base32;
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
  await ctx.db.insertInto('two_factor').values({ user_id: userId, secret: seal(ctx, secret), enabled_at: null, last_step: 0, created_at: now }).execute();
  return { secret, otpauth_uri: totpOf(secret, email).toString() };
}

/** Checks a code against the secret; on success the step is spent, so the same code cannot be used again. */
async function spendTotp(ctx: AppContext, userId: string, code: string, mustBeEnabled: boolean): Promise<boolean> {
  const row = await ctx.db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row || (mustBeEnabled && !row.enabled_at)) return false;
  const now = ctx.clock.now();
  const delta = totpOf(open(ctx, row.secret)).validate({ token: code.replace(/\s/g, ''), timestamp: now, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(now / PERIOD_MS) + delta;
  const spent = await ctx.db.updateTable('two_factor').set({ last_step: step }).where('user_id', '=', userId).where('last_step', '<', step).executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
}

async function newRecoveryCodes(ctx: AppContext, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx.insertInto('recovery_codes').values(codes.map((c) => ({ id: newId(), user_id: userId, code_hash: recoveryHash(ctx, c), used_at: null }))).execute();
  });
  return codes;
}

const guessKey = (userId: string) => `2fa|u:${userId}`;

async function countGuess(ctx: AppContext, userId: string): Promise<void> {
  const wait = await takeAttempt(ctx.db, ctx.clock.now(), [[guessKey(userId), CODE_GUESSES]]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many wrong codes.');
}

/** A right code is no guess: the count starts over. */
const rightCode = (ctx: AppContext, userId: string) => clearAttempts(ctx.db, [guessKey(userId)]);

/** Turns it on with the first code from the app; answers the recovery codes, shown this once. */
export async function enableTwoFactor(ctx: AppContext, userId: string, code: string): Promise<{ recovery_codes: string[] }> {
  if (await twoFactorEnabled(ctx, userId)) throw new HttpError(409, 'already_exists', 'Two-factor sign-in is on already.');
  await countGuess(ctx, userId);
  if (!(await spendTotp(ctx, userId, code, false))) {
    const started = await ctx.db.selectFrom('two_factor').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (!started) throw new HttpError(409, 'failed_precondition', 'Start the set-up first: no secret is waiting to be confirmed.');
    throw wrongCode();
  }
  await rightCode(ctx, userId);
  await ctx.db.updateTable('two_factor').set({ enabled_at: ctx.clock.now() }).where('user_id', '=', userId).execute();
  return { recovery_codes: await newRecoveryCodes(ctx, userId) };
}

export async function disableTwoFactor(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
  });
}

export async function replaceRecoveryCodes(ctx: AppContext, userId: string): Promise<{ recovery_codes: string[] }> {
  if (!(await twoFactorEnabled(ctx, userId))) throw new HttpError(409, 'failed_precondition', 'Two-factor sign-in is off: there are no recovery codes to replace.');
  return { recovery_codes: await newRecoveryCodes(ctx, userId) };
}

/**
 * The second factor of a sign-in or a sudo grant, once the first (the password) passed: nothing to do when the
 * account has none; two_factor_required when no code came; invalid_grant for a wrong or spent one.
 */
export async function checkSecondFactor(ctx: AppContext, userId: string, code: string | undefined): Promise<void> {
  if (!(await twoFactorEnabled(ctx, userId))) return;
  if (!code?.trim()) throw twoFactorRequired();
  await countGuess(ctx, userId);
  if (/^\s*\d{6}\s*$/.test(code)) {
    if (!(await spendTotp(ctx, userId, code, true))) throw wrongCode();
    return rightCode(ctx, userId);
  }
  const hash = recoveryHash(ctx, code);
  // Looked up by a keyed hash: the query's timing tells nothing about the code.
  const row = await ctx.db.selectFrom('recovery_codes').select('id').where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
  if (row) {
    const used = await ctx.db.updateTable('recovery_codes').set({ used_at: ctx.clock.now() }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) === 1) return rightCode(ctx, userId);
  }
  throw wrongCode();
}
