/**
 * Content this server fetched before, by where it came from: an http link's final address and validator, or a
 * torrent's info hash (its .torrent, and each file by index). A cloud download or a check of a known source needs no
 * transfer: the blob is stored already.
 */
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';

export const httpSourceKey = (finalUrl: string, validator: string): string => `${finalUrl}\n${validator}`;
export const torrentSourceKey = (infoHash: string, index: number | 'torrent'): string => `bt:${infoHash}:${index}`;

/** A source fetched before whose blob is still stored. */
export async function knownSource(ctx: AppContext, key: string) {
  const row = await ctx.db.selectFrom('offline_sources').selectAll().where('source_key', '=', key).executeTakeFirst();
  return row && (await ctx.blobs.has(row.hash)) ? row : null;
}

export async function rememberSource(ctx: AppContext, key: string, c: { hash: string; size: number; name: string; mimeType: string }): Promise<void> {
  await ctx.db
    .insertInto('offline_sources')
    .values({ source_key: key, hash: c.hash, size: c.size, name: c.name, mime_type: c.mimeType, created_at: ctx.clock.now() })
    .onConflict((oc) => oc.column('source_key').doUpdateSet({ hash: c.hash, size: c.size }))
    .execute();
}

/**
 * Forgets the sources whose blobs were just deleted (the purge job): each row only ever served while its blob was
 * stored, and nothing else removes it. A torrent's own .torrent is kept in the store without a blob row, so its row
 * (`bt:<hash>:torrent`) stays; a row whose hash is stored again meanwhile (fetched anew) stays too.
 */
export async function forgetSources(db: Db, hashes: string[]): Promise<void> {
  for (let i = 0; i < hashes.length; i += 500) {
    await db
      .deleteFrom('offline_sources')
      .where('hash', 'in', hashes.slice(i, i + 500))
      .where('source_key', 'not like', 'bt:%:torrent')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('blobs').select('blobs.hash').whereRef('blobs.hash', '=', 'offline_sources.hash'))))
      .execute();
  }
}
