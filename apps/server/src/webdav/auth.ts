/**
 * Who a WebDAV request is: HTTP Basic with the account's e-mail address (or phone number) and one of its app
 * passwords; the sign-in password is never accepted here. An app password carries ~140 random bits, so looking one up
 * tells a guesser nothing: a right one is always let in (a client sends dozens of requests at once, and the owner on a
 * guesser's network keeps working), uncounted. Wrong ones are counted in the database, per client network and user
 * name typed and per network across names; past the free ones a key waits doubling up to an hour (429), and a
 * network's wrong tries at other names do not hold up a name's own first tries (attempt-limiter's AcrossWaiver).
 */
import type { FastifyRequest } from 'fastify';
import { normalPhoneNumber } from '@haul/shared/phone-numbers';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { sha256Hex } from '../lib/ids.js';
import { clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { normalEmail } from '../accounts/users.repository.js';
import { accountOfAppPassword, touchAppPassword } from './app-passwords.service.js';

/** Tries at one user name from one network: a client left with a revoked password retries a few times a minute. */
const PER_NAME: AttemptPolicy = { free: 20, baseDelayMs: 1000, maxDelayMs: 3_600_000, forgetMs: 86_400_000 };
/** One network trying many names. */
const PER_NETWORK: AttemptPolicy = { free: 100, baseDelayMs: 1000, maxDelayMs: 3_600_000, forgetMs: 86_400_000 };
/** A name's first wrong tries that the network's count across names does not hold up: as many as its free ones. */
const FIRST_TRIES = PER_NAME.free;
const TOO_MANY = 'Too many wrong WebDAV passwords from this network.';

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
  const from = clientKey(req.ip);
  // The name as typed, in the one spelling of each account's name, known or not, so the limits tell no account apart.
  const phone = normalPhoneNumber(creds.user);
  const name = phone ? `p:${phone}` : `e:${normalEmail(creds.user)}`;
  const perName = `dav|ip:${from}|${sha256Hex(name).slice(0, 32)}`;
  const perNetwork = `dav|ip:${from}`;
  const account = creds.password.length <= 200 ? await accountOfAppPassword(ctx.db, creds.password) : undefined;
  if (!account || !namesAccount(creds.user, account)) {
    // Counted one after another in the database, so a burst of guesses gets no more than the free ones answered 401.
    const wait = await takeAttempt(ctx.db, now, [[perName, PER_NAME], [perNetwork, PER_NETWORK]], { across: perNetwork, target: perName, firstTries: FIRST_TRIES });
    if (wait > 0) throw tooManyAttempts(wait, TOO_MANY);
    throw new DavUnauthenticated('The user name or app password is wrong, or the app password was revoked.');
  }
  if (ctx.config.webdavPremiumOnly && !(account.premium_expire !== null && account.premium_expire > now)) {
    throw new HttpError(403, 'permission_denied', 'WebDAV is part of premium on this server.');
  }
  await touchAppPassword(ctx.db, account.id, account.last_used_at, now);
  return account.user_id;
}
