/**
 * Who a WebDAV request is: HTTP Basic with the account's e-mail address (or phone number) and one of its app
 * passwords; the sign-in password is never accepted here. Wrong tries are counted in the database per client
 * network and, past the free ones, wait doubling up to an hour; a right one is never slowed by the count.
 */
import type { FastifyRequest } from 'fastify';
import { normalPhoneNumber } from '@haul/shared/phone-numbers';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { normalEmail } from '../accounts/users.repository.js';
import { accountOfAppPassword, touchAppPassword } from './app-passwords.service.js';

const POLICY: AttemptPolicy = { free: 20, baseDelayMs: 1000, maxDelayMs: 3_600_000, forgetMs: 86_400_000 };

/** What clients show when they ask for a password. */
export const REALM = 'Haul WebDAV (your e-mail address and an app password)';

/** A 401 that asks for Basic credentials. */
export class DavUnauthenticated extends HttpError {
  constructor(message: string) {
    super(401, 'unauthenticated', message);
  }
}

function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** Whether `typed` names the account: its e-mail address or phone number, in any of their usual spellings. */
function namesAccount(typed: string, account: { email: string; phone_number: string | null }): boolean {
  if (normalEmail(typed) === normalEmail(account.email)) return true;
  const phone = account.phone_number ? normalPhoneNumber(typed) : null;
  return !!phone && phone === account.phone_number;
}

/** The account of the request's credentials, or a 401 (429 while this network is waiting; 403 when not allowed). */
export async function davCaller(ctx: AppContext, req: FastifyRequest): Promise<string> {
  const creds = basicCredentials(req.headers.authorization);
  if (!creds) throw new DavUnauthenticated('Sign in with your e-mail address and an app password made in your account settings.');
  const now = ctx.clock.now();
  const key = `dav|ip:${clientKey(req.ip)}`;
  const row = await ctx.db.selectFrom('attempt_limits').select(['next_at', 'last_at']).where('key', '=', key).executeTakeFirst();
  if (row && row.next_at > now && now - row.last_at <= POLICY.forgetMs) throw tooManyAttempts(row.next_at - now, 'Too many wrong WebDAV passwords from this network.');
  const account = creds.password.length <= 200 ? await accountOfAppPassword(ctx.db, creds.password) : undefined;
  if (!account || !namesAccount(creds.user, account)) {
    const wait = await takeAttempt(ctx.db, now, [[key, POLICY]]);
    if (wait > 0) throw tooManyAttempts(wait, 'Too many wrong WebDAV passwords from this network.');
    throw new DavUnauthenticated('The user name or app password is wrong, or the app password was revoked.');
  }
  if (ctx.config.webdavPremiumOnly && !(account.premium_expire !== null && account.premium_expire > now)) {
    throw new HttpError(403, 'permission_denied', 'WebDAV is part of premium on this server.');
  }
  await touchAppPassword(ctx.db, account.id, account.last_used_at, now);
  return account.user_id;
}
