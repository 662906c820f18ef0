/**
 * What a verified provider identity does to accounts: signs in the one it is connected to, makes one on a first
 * sign-in, or is connected to (and disconnected from) the signed-in account. An identity is never connected to an
 * account because their e-mail addresses match: whoever controls a provider account with someone's address (a
 * provider that let it be claimed, a lapsed domain) would otherwise open their drive. The owner connects it, signed in.
 */
import { isEmail, type LinkedProvider, type TokenResponse } from '@haul/shared';
import { refuseBeforeSetup } from '../accounts/setup-state.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { toRfc3339 } from '../lib/time.js';
import { checkSudoForCredential } from '../accounts/sudo.js';
import { issueTokens } from '../accounts/tokens.js';
import type { ClientInfo } from '../http/client-info.js';
import { type Caller } from '../http/access-tokens.js';
import { checkSecondFactor } from '../accounts/two-factor.js';
import { findUserByEmail, findUserById, newUserRow } from '../accounts/users.repository.js';
import type { OidcClients } from './oidc-clients.js';
import { hasPassword, passwordlessHash } from './passwordless.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { recordInvitation } from '../invitations/invitation-rewards.js';
import { grantTrial } from '../plans/trial.js';
import { findLinkByIdentity, findUserLink, listUserLinks, type ProviderLinkRow } from './provider-links.repository.js';
import { spendProviderToken, verifyProviderToken, type ProviderGrant } from './provider-token.js';

const disabled = () => new HttpError(403, 'permission_denied', 'This account is disabled. Please contact the operator of this server.');
const live = (u: UserRow | undefined): u is UserRow => !!u && u.deleted_at === null;

function present(clients: OidcClients, link: ProviderLinkRow): LinkedProvider {
  return { provider_id: link.provider_id, name: clients.find(link.provider_id)?.name ?? link.provider_id, email: link.email, created_at: toRfc3339(link.created_at) };
}

/**
 * The live account an identity is connected to. A link left by an account being erased is dropped here, so the
 * identity is free for a new account at once (the erasure would drop it later).
 */
async function linkedAccount(ctx: AppContext, grant: ProviderGrant): Promise<{ link: ProviderLinkRow; user: UserRow } | null> {
  const link = await findLinkByIdentity(ctx.db, grant.issuer, grant.subject);
  if (!link) return null;
  const user = await findUserById(ctx.db, link.user_id);
  if (live(user)) return { link, user };
  await ctx.db.deleteFrom('provider_links').where('id', '=', link.id).execute();
  return null;
}

/** Makes an account without a password for a verified identity, connected to it, in one transaction. */
async function createProviderAccount(ctx: AppContext, grant: ProviderGrant, providerName: string, client: ClientInfo, invitationCode?: string): Promise<UserRow> {
  await refuseBeforeSetup(ctx);
  // An invitation-only server takes its codes on the sign-up form, which a provider's sign-in skips.
  if (ctx.config.registration !== 'open') throw new HttpError(403, 'permission_denied', `No account is connected to this ${providerName} account, and registration is ${ctx.config.registration === 'invite' ? 'by invitation only' : 'closed'} on this server.`);
  if (!grant.email || !grant.emailVerified || !isEmail(grant.email)) {
    throw new HttpError(409, 'failed_precondition', `No account is connected to this ${providerName} account, and ${providerName} did not confirm an e-mail address for it, so none can be made.`);
  }
  const taken = () =>
    new HttpError(409, 'failed_precondition', `An account with ${grant.email} already exists. Sign in with its password, then connect ${providerName} from the account page.`);
  if (await findUserByEmail(ctx.db, grant.email)) throw taken();
  const now = ctx.clock.now();
  const user = newUserRow(ctx.config, now, { email: grant.email, name: (grant.name || grant.email.split('@')[0]!).slice(0, 100), passwordHash: await passwordlessHash() });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user).execute();
      await insertLink(trx, user.id, grant, now);
      await grantTrial(ctx, trx, user);
      await recordInvitation(ctx, trx, user, invitationCode, client.ip);
    });
  } catch (err) {
    // A sign-up or a second sign-in with this identity raced this one: the unique indexes decided.
    if (isUniqueViolation(err)) throw (await findUserByEmail(ctx.db, grant.email)) ? taken() : new HttpError(409, 'already_exists', 'This identity was connected to an account meanwhile. Please sign in again.');
    throw err;
  }
  return user;
}

function insertLink(db: Db, userId: string, grant: ProviderGrant, now: number) {
  return db
    .insertInto('provider_links')
    .values({ id: newId(), user_id: userId, provider_id: grant.providerId, issuer: grant.issuer, subject: grant.subject, email: grant.email, created_at: now })
    .execute();
}

/** Signs in with a provider token: the connected account, else a new one (see createProviderAccount). */
export async function signInWithProvider(ctx: AppContext, clients: OidcClients, token: string, client: ClientInfo, secondFactor?: string, invitationCode?: string): Promise<TokenResponse> {
  const grant = await verifyProviderToken(ctx, clients, token);
  // An account with an authenticator app asks for its code here too, before the token is spent, so the person asked
  // for it sends it with the same token.
  const before = await linkedAccount(ctx, grant);
  if (before) await checkSecondFactor(ctx, before.user.id, secondFactor);
  await spendProviderToken(ctx, grant);
  const providerName = clients.find(grant.providerId)!.name;
  const found = await linkedAccount(ctx, grant);
  const user = found?.user ?? (await createProviderAccount(ctx, grant, providerName, client, invitationCode));
  if (user.disabled_at !== null) throw disabled();
  return issueTokens(ctx, user.id, client);
}

/** The account's connected providers. */
export async function listLinkedProviders(ctx: AppContext, clients: OidcClients, userId: string): Promise<{ providers: LinkedProvider[]; has_password: boolean }> {
  const user = await findUserById(ctx.db, userId);
  const links = await listUserLinks(ctx.db, userId);
  return { providers: links.map((l) => present(clients, l)), has_password: !!user && hasPassword(user.password_hash) };
}

/**
 * Connects a provider identity to the caller's account. An account with a password confirms it is the owner with a
 * sudo token first: a stolen access token must not be turned into a lasting way in that outlives it and a password
 * change. An account without a password has no such proof but the provider it signs in with.
 */
export async function bindProvider(ctx: AppContext, clients: OidcClients, caller: Caller, input: { provider_token: string; force_replace?: boolean; sudo_token?: string }): Promise<LinkedProvider> {
  const user = await findUserById(ctx.db, caller.userId);
  if (!live(user)) throw new HttpError(401, 'unauthenticated', 'The account no longer exists.');
  await checkSudoForCredential(ctx, caller, input.sudo_token);
  const grant = await verifyProviderToken(ctx, clients, input.provider_token);
  await spendProviderToken(ctx, grant);
  const providerName = clients.find(grant.providerId)!.name;
  const found = await linkedAccount(ctx, grant);
  if (found?.user.id === user.id) return present(clients, found.link);
  if (found) throw new HttpError(409, 'already_exists', `This ${providerName} account is connected to another account. Disconnect it there first.`);
  const now = ctx.clock.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const current = await findUserLink(trx, user.id, grant.providerId);
      if (current && !input.force_replace) throw new HttpError(409, 'already_exists', `Another ${providerName} account is connected already. Replace it, or disconnect it first.`);
      if (current) await trx.deleteFrom('provider_links').where('id', '=', current.id).execute();
      await insertLink(trx, user.id, grant, now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, 'already_exists', `This ${providerName} account was connected meanwhile. Please try again.`);
    throw err;
  }
  return present(clients, (await findUserLink(ctx.db, user.id, grant.providerId))!);
}

/** Holds the account's row until the transaction ends (SQLite has one writer: a first write takes it). */
async function lockUser(ctx: AppContext, trx: Db, userId: string): Promise<void> {
  if (ctx.dialect === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  else await trx.updateTable('users').set((eb) => ({ session_epoch: eb.ref('session_epoch') })).where('id', '=', userId).execute();
}

/**
 * Disconnects a provider. Under the account's lock, so two disconnections at once cannot both find the other way in
 * still there and leave an account without a password no way in at all.
 */
export async function unbindProvider(ctx: AppContext, caller: Caller, providerId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockUser(ctx, trx, caller.userId);
    const link = await findUserLink(trx, caller.userId, providerId);
    if (!link) throw new HttpError(404, 'not_found', 'No account of that provider is connected.');
    const user = await findUserById(trx, caller.userId);
    const links = await listUserLinks(trx, caller.userId);
    if (user && !hasPassword(user.password_hash) && links.length <= 1) {
      throw new HttpError(409, 'failed_precondition', 'This is the only way into your account. Set a password (with "Forgot password" on the sign-in page) or connect another provider first.');
    }
    await trx.deleteFrom('provider_links').where('id', '=', link.id).execute();
  });
}
