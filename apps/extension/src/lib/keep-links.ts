/**
 * Keeps links in Haul for later (bookmarks, source "extension"): nothing is fetched now; the person fetches them from
 * the drive's Bookmarks page. One createBookmark call a link, a contract route as every call here is.
 */
import { currentConnection } from './haul-client';
import { isFetchable, unique } from './links';
import { t } from './i18n';
import { describeFailure, noLinkWords, notConnectedWords, signedOutWords } from './words';

export async function keepLinks(candidates: string[]): Promise<{ ok: boolean; message: string }> {
  const links = unique(candidates).filter(isFetchable);
  if (!links.length) return { ok: false, message: noLinkWords() };
  const conn = await currentConnection();
  if (conn.state === 'none') return { ok: false, message: notConnectedWords() };
  if (conn.state === 'signed-out') return { ok: false, message: signedOutWords() };
  try {
    for (const url of links) await conn.client.call('createBookmark', { body: { url, source: 'extension' } });
  } catch (err) {
    return { ok: false, message: describeFailure(err, conn.server) };
  }
  return { ok: true, message: links.length === 1 ? t('keptOne') : t('keptMany', { n: links.length }) };
}
