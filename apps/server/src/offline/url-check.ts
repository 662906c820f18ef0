/**
 * The URL checker (POST /drive/v1/url:check): what a link holds and whether this server has it already, before
 * anything is fetched for it. An http link is asked of its server (http-probe.ts); a magnet link, or a .torrent behind
 * an http link, is listed by the torrent engine. Failures are 400s in the words a cloud download would fail with.
 */
import parseTorrent from 'parse-torrent';
import type { UrlCheck } from '@haul/shared';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { probeHttpLink } from './http-probe.js';
import { parseHttpLink } from './network-guard.js';
import { httpSourceKey, knownSource, torrentSourceKey } from './offline-sources.js';
import { OFFLINE_REASONS, offlineReason } from './offline-reasons.js';
import { TORRENT_MAX_BYTES } from './offline.service.js';
import { presentTorrent } from './torrent-listing.js';
import { TorrentError, type TorrentInfo } from './torrent-types.js';

/** What the checker needs of the cloud download worker: a torrent's file list. */
export interface TorrentLister {
  inspectTorrent(source: Buffer | string): Promise<TorrentInfo>;
}

const PROBE_TIMEOUT_MS = 15_000;

/** A failure as the checker's 400, with the cloud download reason code (for the client's own words) in the details. */
function checkFailed(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const reason = offlineReason(err);
  return new HttpError(400, 'invalid_argument', OFFLINE_REASONS[reason], [{ reason }]);
}

async function allKnown(ctx: AppContext, info: TorrentInfo): Promise<boolean> {
  const known = await Promise.all(info.files.map((f) => knownSource(ctx, torrentSourceKey(info.infoHash, f.index))));
  return known.length > 0 && known.every(Boolean);
}

/** The engine's refusal (already a 400) given its reason code, as every other failure here has. */
async function inspect(lister: TorrentLister, source: Buffer | string): Promise<TorrentInfo> {
  try {
    return await lister.inspectTorrent(source);
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 400 || err.details.length) throw err;
    throw new HttpError(400, err.error, err.message, [{ reason: offlineReason(new TorrentError(err.message, false)) }]);
  }
}

async function checkTorrent(
  ctx: AppContext,
  lister: TorrentLister,
  kind: 'magnet' | 'torrent',
  url: string,
  source: Buffer | string,
): Promise<UrlCheck> {
  const info = await inspect(lister, source);
  const torrent = presentTorrent(info);
  return {
    kind,
    url,
    name: info.name,
    size: torrent.size,
    mime_type: '',
    instant: await allKnown(ctx, info),
    torrent,
    ...(Buffer.isBuffer(source) ? { torrent_file: source.toString('base64') } : {}),
  };
}

export async function checkUrl(ctx: AppContext, lister: TorrentLister, raw: string): Promise<UrlCheck> {
  const link = raw.trim();
  try {
    if (/^magnet:\?/i.test(link)) return await checkTorrent(ctx, lister, 'magnet', link, link);
    if (!parseHttpLink(link)) throw new HttpError(400, 'invalid_argument', 'Give an http, https or magnet link.', [{ reason: 'bad_link' }]);
    const probe = await probeHttpLink(link, {
      allowPrivateNetwork: ctx.config.allowPrivateNetwork,
      timeoutMs: PROBE_TIMEOUT_MS,
      torrentMaxBytes: TORRENT_MAX_BYTES,
    });
    if (probe.torrent) {
      if (!(await parseTorrent(probe.torrent).catch(() => null))?.infoHash) {
        throw new HttpError(400, 'invalid_argument', 'The link serves a .torrent file that is not valid.', [{ reason: 'bad_torrent' }]);
      }
      return await checkTorrent(ctx, lister, 'torrent', probe.finalUrl, probe.torrent);
    }
    const known = probe.validator ? await knownSource(ctx, httpSourceKey(probe.finalUrl, probe.validator)) : null;
    return {
      kind: 'http',
      url: probe.finalUrl,
      name: probe.name,
      size: known ? String(known.size) : probe.size === null ? '' : String(probe.size),
      mime_type: probe.mimeType,
      instant: !!known,
    };
  } catch (err) {
    throw checkFailed(err);
  }
}
