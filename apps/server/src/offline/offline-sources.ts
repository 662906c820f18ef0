/**
 * Content this server fetched before, by where it came from: an http link's final address and validator, or a
 * torrent's info hash (its .torrent, and each file by index). A cloud download or a check of a known source needs no
 * transfer: the blob is stored already.
 */
import type { AppContext } from '../context.js';

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
