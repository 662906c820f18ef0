/** Signing keys are generated from a secure random source on first start and kept in the database. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Secrets } from '../context.js';

async function getOrCreate(db: Db, key: string): Promise<Uint8Array> {
  // Insert-if-absent then read, so concurrent first starts (several processes) agree on one key.
  await db
    .insertInto('system_kv')
    .values({ key, value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('system_kv').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return new Uint8Array(Buffer.from(row.value, 'base64'));
}

export async function loadSecrets(db: Db): Promise<Secrets> {
  return { tokenKey: await getOrCreate(db, 'token_key'), linkKey: await getOrCreate(db, 'link_key') };
}
