/**
 * Passkeys (WebAuthn through @simplewebauthn/server): adding one (after sudo), listing, renaming and removing them, and
 * signing in with one. The relying party is the host of the address the app was opened at (the pinned public URL when
 * there is one), as every other link the server makes; a passkey made at one host works at that host only. A passkey
 * must be discoverable (the sign-in field offers it with no name typed) and verify the person (a PIN or a biometric),
 * which is why it counts as both factors and no two-factor code follows it.
 */
import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { displayNameProblem, type TokenResponse } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { PasskeysTable } from '../db/schema-passkeys.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { recordAudit } from '../audit/audit.repository.js';
import { deviceName } from '../devices/device-name.js';
import type { ClientInfo } from '../http/client-info.js';
import { HttpError, badInput } from '../http/errors.js';
import { publicUrl } from '../http/public-url.js';
import { newId } from '../lib/ids.js';
import { toRfc3339 } from '../lib/time.js';
import { clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { issueChallenge, signedChallenge, spendChallenge, CHALLENGE_TTL_MS } from './passkey-challenges.js';
import { issueTokens, knownAddress } from './tokens.js';
import { findUserById } from './users.repository.js';

/** Starting sign-ins is free of secrets but writes a row: a network gets plenty, then a wait. */
const STARTS_PER_NETWORK: AttemptPolicy = { free: 100, baseDelayMs: 1000, maxDelayMs: 60_000, forgetMs: 10 * 60_000 };
const MAX_PASSKEYS = 50;

export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/** The relying party of the current request: its host, if browsers accept that host for passkeys. */
export function relyingParty(ctx: AppContext): RelyingParty {
  const url = new URL(publicUrl(ctx));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host.endsWith('.localhost');
  // Browsers refuse an IP address as the relying party, and passkeys outside a secure context (HTTPS or localhost).
  if (!host || isIP(host) || (url.protocol !== 'https:' && !local)) {
    throw new HttpError(409, 'failed_precondition', 'Passkeys need the app opened at a name (localhost, or the domain of an HTTPS address), not at an IP address, and over HTTPS anywhere but localhost.');
  }
  return { id: host, origin: url.origin, name: ctx.config.siteName || 'Haul' };
}

/** A passkey as the account pages show it. */
export function presentPasskey(p: Pick<PasskeysTable, 'id' | 'name' | 'created_at' | 'last_used_at' | 'backed_up'>) {
  return { id: p.id, name: p.name, created_at: toRfc3339(p.created_at), last_used_at: toRfc3339(p.last_used_at), synced: p.backed_up === 1 };
}

const transportsOf = (p: Pick<PasskeysTable, 'transports'>): AuthenticatorTransport[] => {
  try {
    const list = JSON.parse(p.transports) as unknown;
    return Array.isArray(list) ? (list.filter((t) => typeof t === 'string') as AuthenticatorTransport[]) : [];
  } catch {
    return [];
  }
};

/** A name the person typed, trimmed and checked like a display name. */
function passkeyName(name: string): string {
  const trimmed = name.trim();
  if (displayNameProblem(trimmed)) throw badInput('Please give the passkey a name of 1 to 64 characters, without line breaks or control characters.');
  return trimmed;
}

export function listPasskeys(ctx: AppContext, userId: string) {
  return ctx.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

/** The options of navigator.credentials.create(), with a challenge bound to this account and session. */
export async function registrationOptions(ctx: AppContext, caller: { userId: string; sessionId: string }) {
  const rp = relyingParty(ctx);
  const user = await findUserById(ctx.db, caller.userId);
  if (!user || user.deleted_at !== null) throw new HttpError(404, 'file_not_found', 'The account no longer exists.');
  const existing = await listPasskeys(ctx, user.id);
  const challenge = await issueChallenge(ctx, 'register', caller);
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    // The account's id (random, no personal data) is the user handle: a sign-in names the account by it.
    userID: new TextEncoder().encode(user.id),
    userName: user.email || user.phone_number || user.name,
    userDisplayName: user.name || user.email,
    // As bytes: a string would be taken as text and encoded again, and the browser would sign another value.
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

/** Checks a new credential against this session's challenge and keeps it. */
export async function addPasskey(ctx: AppContext, caller: { userId: string; sessionId: string }, credential: Record<string, unknown>, name: string | undefined, client: ClientInfo) {
  const rp = relyingParty(ctx);
  const response = credential as unknown as RegistrationResponseJSON;
  const challenge = signedChallenge((response.response as { clientDataJSON?: unknown } | undefined)?.clientDataJSON);
  await spendChallenge(ctx, challenge, 'register', caller);
  const label = name === undefined ? deviceName(client.userAgent).slice(0, 64) : passkeyName(name);
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true });
  } catch (err) {
    throw badInput(`The passkey could not be checked: ${(err as Error).message}`);
  }
  if (!verified.verified) throw badInput('The passkey could not be checked.');
  const { credential: made, credentialBackedUp, credentialDeviceType } = verified.registrationInfo;
  const count = await ctx.db.selectFrom('passkeys').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', caller.userId).executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_PASSKEYS) throw badInput(`An account keeps at most ${MAX_PASSKEYS} passkeys: remove one first.`);
  const row: PasskeysTable = {
    id: newId(),
    user_id: caller.userId,
    credential_id: made.id,
    public_key: Buffer.from(made.publicKey).toString('base64url'),
    counter: made.counter,
    transports: JSON.stringify((Array.isArray(made.transports) ? made.transports : Array.isArray(response.response.transports) ? response.response.transports : []).slice(0, 10)),
    name: label || 'Passkey',
    backed_up: credentialBackedUp || credentialDeviceType === 'multiDevice' ? 1 : 0,
    created_at: ctx.clock.now(),
    last_used_at: null,
  };
  try {
    await ctx.db.insertInto('passkeys').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, 'already_exists', 'This passkey is registered already.');
    throw err;
  }
  return row;
}

export async function renamePasskey(ctx: AppContext, userId: string, id: string, name: string) {
  const label = passkeyName(name);
  const res = await ctx.db.updateTable('passkeys').set({ name: label }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw notYours();
  return ctx.db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Removes one of the account's passkeys; another account's answers as one that does not exist. */
export async function removePasskey(ctx: AppContext, userId: string, id: string): Promise<{ name: string }> {
  const row = await ctx.db.selectFrom('passkeys').select(['name']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  const res = await ctx.db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row || Number(res.numDeletedRows) !== 1) throw notYours();
  return row;
}

const notYours = () => new HttpError(404, 'not_found', 'No passkey of this account has that id (it may be removed already).');

/** The options of navigator.credentials.get() for a discoverable sign-in (no allowed list). */
export async function signInOptions(ctx: AppContext, client: ClientInfo) {
  const rp = relyingParty(ctx);
  const wait = await takeAttempt(ctx.db, ctx.clock.now(), [[`passkey|${clientKey(client.ip)}`, STARTS_PER_NETWORK]]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many passkey sign-ins started from this network.');
  const challenge = await issueChallenge(ctx, 'sign_in');
  return generateAuthenticationOptions({ rpID: rp.id, challenge: Buffer.from(challenge, 'base64url'), timeout: CHALLENGE_TTL_MS, userVerification: 'required' });
}

const refused = (why: string) => new HttpError(400, 'invalid_grant', why);

/** Signs in with a passkey: the same session and tokens as a password sign-in, both factors counted. */
export async function signInWithPasskey(ctx: AppContext, credential: Record<string, unknown>, client: ClientInfo): Promise<TokenResponse> {
  const rp = relyingParty(ctx);
  const response = credential as unknown as AuthenticationResponseJSON;
  if (typeof response.id !== 'string' || !response.id || response.id.length > 1400) throw badInput('The credential is malformed: it has no id.');
  const challenge = signedChallenge((response.response as { clientDataJSON?: unknown } | undefined)?.clientDataJSON);
  // Spent before anything else is looked at: every answer, right or wrong, costs the challenge.
  await spendChallenge(ctx, challenge, 'sign_in');
  const key = await ctx.db.selectFrom('passkeys').selectAll().where('credential_id', '=', response.id).executeTakeFirst();
  if (!key) throw refused('This passkey is not registered here: it may have been removed from the account. Please sign in another way.');
  const handle: unknown = response.response?.userHandle;
  if (handle !== undefined && (typeof handle !== 'string' || Buffer.from(handle, 'base64url').toString('utf8') !== key.user_id)) throw refused('This passkey belongs to another account.');
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: { id: key.credential_id, publicKey: Buffer.from(key.public_key, 'base64url'), counter: key.counter, transports: transportsOf(key) },
    });
  } catch (err) {
    throw refused(`The passkey could not be checked: ${(err as Error).message}`);
  }
  if (!verified.verified) throw refused('The passkey could not be checked.');
  const user = await findUserById(ctx.db, key.user_id);
  if (!user || user.deleted_at !== null) throw refused('This passkey is not registered here: it may have been removed from the account. Please sign in another way.');
  if (user.disabled_at !== null) throw new HttpError(403, 'permission_denied', 'This account is disabled. Please contact the operator of this server.');
  const now = ctx.clock.now();
  await ctx.db.updateTable('passkeys').set({ counter: verified.authenticationInfo.newCounter, last_used_at: now }).where('id', '=', key.id).execute();
  const known = await knownAddress(ctx.db, user.id, client.ip);
  const tokens = await issueTokens(ctx, user.id, client);
  const device = client.userAgent.slice(0, 200);
  await recordAudit(ctx.db, { action: 'sign_in.passkey', subjectId: user.id, ip: client.ip, details: { name: key.name, device } }, now);
  if (!known) await recordAudit(ctx.db, { action: 'sign_in.new_network', subjectId: user.id, ip: client.ip, details: { device } }, now);
  return tokens;
}
