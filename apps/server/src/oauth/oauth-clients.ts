/**
 * Registered third-party apps and how one proves it is itself (RFC 6749 §2.3): a confidential app with its secret, by
 * HTTP Basic or in the body; a public app (native, a script) only names itself, and PKCE is what protects its codes.
 * Secrets are 256 random bits, shown once and stored as SHA-256 (no slow hash is needed for a secret nobody chose).
 */
import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { newId, newSecret, sha256Hex } from '../lib/ids.js';

export interface OAuthClient {
  id: string;
  name: string;
  confidential: boolean;
  redirectUris: string[];
  createdAt: number;
  secretHash: string | null;
}

const invalidClient = (message = 'The app could not be authenticated.') => new HttpError(401, 'invalid_client', message);

/**
 * Why `uri` cannot be registered, or null when it can: an absolute URI without a fragment (RFC 6749 §3.1.2), https, or
 * http on a loopback address (RFC 8252 §7.3), or a private-use scheme with a dot in it (RFC 8252 §7.1).
 */
export function redirectUriProblem(uri: string): string | null {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (u.hash || uri.includes('#')) return 'has a fragment';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:') return ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname) ? null : 'uses http on a host other than loopback (use https)';
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]*:$/i.test(u.protocol)) return null;
  return 'must be https, http on loopback, or a private-use scheme such as com.example.app:/callback';
}

const toClient = (r: { id: string; name: string; secret_hash: string | null; redirect_uris: string; created_at: number }): OAuthClient => ({
  id: r.id,
  name: r.name,
  confidential: r.secret_hash !== null,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  createdAt: Number(r.created_at),
  secretHash: r.secret_hash,
});

/** Registers an app; a confidential one gets a secret, answered here only. */
export async function createClient(ctx: AppContext, input: { name: string; redirectUris: string[]; confidential: boolean }): Promise<{ client: OAuthClient; secret: string | null }> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new Error('the name must be 1 to 100 characters');
  if (!input.redirectUris.length) throw new Error('at least one redirect URI is needed');
  for (const uri of input.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new Error(`redirect URI ${uri} ${problem}`);
  }
  const secret = input.confidential ? newSecret() : null;
  const row = { id: newId(), name, secret_hash: secret ? sha256Hex(secret) : null, redirect_uris: JSON.stringify([...new Set(input.redirectUris)]), created_at: ctx.clock.now() };
  await ctx.db.insertInto('oauth_clients').values(row).execute();
  return { client: toClient(row), secret };
}

export async function findClient(db: Db, id: string): Promise<OAuthClient | undefined> {
  const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toClient(row) : undefined;
}

export async function listClients(db: Db): Promise<OAuthClient[]> {
  return (await db.selectFrom('oauth_clients').selectAll().orderBy('created_at').execute()).map(toClient);
}

/** Removes an app: its codes, consents and sessions (with their refresh tokens) go with it (cascade). */
export async function deleteClient(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('oauth_clients').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Compares a presented secret with the stored hash in constant time. */
function secretMatches(client: OAuthClient, secret: string): boolean {
  if (!client.secretHash) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(secret), 'hex'), Buffer.from(client.secretHash, 'hex'));
}

/** What a request says about the app calling: HTTP Basic (RFC 6749 §2.3.1, form-encoded parts) or body fields. */
export interface ClientCredentials {
  authorization?: string;
  client_id?: string;
  client_secret?: string;
}

/** Whether the request names an app at all (Basic, or client_id in the body). */
export const namesClient = (c: ClientCredentials): boolean => /^Basic\s/i.test(c.authorization ?? '') || !!c.client_id;

function readCredentials(c: ClientCredentials): { id: string; secret: string | undefined } {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(c.authorization ?? '');
  if (basic) {
    const text = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon < 0) throw invalidClient('The Basic credentials are malformed.');
    let id: string, secret: string;
    try {
      id = decodeURIComponent(text.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(text.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw invalidClient('The Basic credentials are malformed.');
    }
    // One method at a time (RFC 6749 §2.3): a body naming another app is refused.
    if ((c.client_id && c.client_id !== id) || c.client_secret) throw invalidClient('Send the app\'s credentials one way only.');
    return { id, secret };
  }
  if (!c.client_id) throw invalidClient('The app did not say who it is (client_id).');
  return { id: c.client_id, secret: c.client_secret };
}

/**
 * The app a request authenticates as: a confidential app must present its secret, a public app must present none.
 * Every failure is one answer, invalid_client, so an unknown id and a wrong secret read alike.
 */
export async function authenticateClient(db: Db, c: ClientCredentials): Promise<OAuthClient> {
  const { id, secret } = readCredentials(c);
  const client = await findClient(db, id);
  if (!client) throw invalidClient();
  if (client.confidential ? !secret || !secretMatches(client, secret) : secret) throw invalidClient();
  return client;
}
