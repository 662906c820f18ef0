/**
 * Reading a feed over the network: one conditional GET (If-None-Match / If-Modified-Since from the last answer)
 * through `requestFollowing`, so every hop passes the network guard and the private-network setting holds as for
 * cloud downloads. A failure becomes words a person reads in the feed's status.
 */
import { requestFollowing } from '../offline/http-fetch.js';
import { OFFLINE_REASONS, offlineReason } from '../offline/offline-reasons.js';

/** A feed larger than this is refused: no real feed is, and it bounds what one check holds in memory. */
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

export type FeedAnswer = { changed: false } | { changed: true; body: string; etag: string; lastModified: string };

export class FeedFetchError extends Error {}

export async function fetchFeed(
  url: string,
  validators: { etag: string; lastModified: string },
  opts: { allowPrivateNetwork: boolean; timeoutMs?: number },
): Promise<FeedAnswer> {
  const headers: Record<string, string> = { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5' };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  let answer: Awaited<ReturnType<typeof requestFollowing>>;
  try {
    answer = await requestFollowing(url, headers, { allowPrivateNetwork: opts.allowPrivateNetwork, timeoutMs: opts.timeoutMs ?? TIMEOUT_MS });
  } catch (err) {
    throw new FeedFetchError(inWords(err));
  }
  const { res } = answer;
  const status = res.statusCode ?? 0;
  if (status === 304) {
    res.resume();
    return { changed: false };
  }
  if (status < 200 || status >= 300) {
    res.resume();
    const what = status === 404 ? 'has no feed there (404)' : status === 401 || status === 403 ? `refused access (${status})` : `answered with an error (${status})`;
    throw new FeedFetchError(`The feed's server ${what}.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > FEED_MAX_BYTES) {
        res.destroy();
        throw new FeedFetchError(`The feed is larger than ${FEED_MAX_BYTES / 1024 / 1024} MB.`);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    throw err instanceof FeedFetchError ? err : new FeedFetchError(inWords(err));
  }
  const header = (name: string) => [res.headers[name]].flat()[0] ?? '';
  return { changed: true, body: Buffer.concat(chunks).toString('utf8'), etag: header('etag').slice(0, 500), lastModified: header('last-modified').slice(0, 100) };
}

/** The cloud downloads' words for a network failure, said of the feed. */
function inWords(err: unknown): string {
  const reason = offlineReason(err);
  if (reason === 'bad_link') return (err as Error).message || OFFLINE_REASONS.bad_link;
  return OFFLINE_REASONS[reason].replace('The server of the link', "The feed's server").replace("The link's server", "The feed's server").replace('The link leads', 'The feed is');
}
