/** Queries on provider_links: which provider identity opens which account. */
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ProviderLinksTable } from '../db/schema.js';

export type ProviderLinkRow = Selectable<ProviderLinksTable>;

/** The link of an identity (issuer + subject), whoever's it is. */
export function findLinkByIdentity(db: Db, issuer: string, subject: string): Promise<ProviderLinkRow | undefined> {
  return db.selectFrom('provider_links').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
}

/** The account's link of one provider. */
export function findUserLink(db: Db, userId: string, providerId: string): Promise<ProviderLinkRow | undefined> {
  return db.selectFrom('provider_links').selectAll().where('user_id', '=', userId).where('provider_id', '=', providerId).executeTakeFirst();
}

/** Every link of the account, oldest first. */
export function listUserLinks(db: Db, userId: string): Promise<ProviderLinkRow[]> {
  return db.selectFrom('provider_links').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

