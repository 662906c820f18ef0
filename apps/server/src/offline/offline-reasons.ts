/**
 * Why a cloud download failed (or is trying again), as a stable code in the task's `params.reason` that clients turn
 * into words of their own language, and English words for the task's message. What the engine said ("connect
 * ECONNREFUSED 127.0.0.1:8080") goes to `params.detail` only: it helps whoever looks closer, and tells nobody else much.
 */
import { ERROR_CODES } from '@haul/shared';
import { HttpError } from '../http/errors.js';
import { BlockedAddressError } from './network-guard.js';
import { TorrentError } from './torrent-types.js';

export const OFFLINE_REASONS = {
  refused: 'The server of the link refused the connection.',
  host_not_found: "The link's server name could not be found.",
  timeout: 'The server of the link did not answer in time.',
  dropped: 'The connection to the server of the link dropped.',
  tls: 'The server of the link has no valid certificate for a secure connection.',
  not_found: 'The server of the link has no file there (404).',
  forbidden: 'The server of the link refused access to the file.',
  http_error: 'The server of the link answered with an error.',
  bad_link: 'The link cannot be fetched (not http or https, or too many redirects).',
  private_address: 'The link leads to a private network address, which Haul does not fetch from.',
  stalled: 'No data arrived for too long.',
  too_slow: 'Data arrived too slowly for too long.',
  no_peers: 'No peer sent the torrent in time.',
  bad_torrent: 'The torrent could not be read.',
  torrent_engine: 'The BitTorrent engine could not run this torrent.',
  disk_full: "The server's disk is full.",
  space: 'The download is larger than the free space in your drive.',
  month: "The download is larger than what is left of this month's cloud download allowance.",
  plan: 'The download is larger than one cloud download of your plan may be.',
  no_room: 'The download no longer fits in your drive: other files took the space while it ran.',
  empty: 'Nothing was received.',
  unknown: 'The download failed.',
} as const;
export type OfflineReason = keyof typeof OFFLINE_REASONS;

/** The limit reason of a limit error's name. */
const LIMIT_REASON: Partial<Record<keyof typeof ERROR_CODES, OfflineReason>> = {
  file_space_not_enough: 'space',
  monthly_cloud_download_size_exceeded: 'month',
  file_size_too_large: 'plan',
};

const NODE_CODES: [RegExp, OfflineReason][] = [
  [/EHAULBLOCKED|private or reserved network/, 'private_address'],
  [/\bECONNREFUSED\b/, 'refused'],
  [/\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME)\b/, 'host_not_found'],
  [/\b(ETIMEDOUT|ESOCKETTIMEDOUT|did not answer in time)\b/, 'timeout'],
  [/\b(ECONNRESET|EPIPE|socket hang up|connection dropped|bytes; the download will continue)\b/i, 'dropped'],
  [/\b(CERT_|UNABLE_TO_VERIFY|SELF_SIGNED|ERR_TLS|ERR_SSL|EPROTO)\w*/, 'tls'],
  [/\b(EHOSTUNREACH|ENETUNREACH)\b/, 'refused'],
  [/\bENOSPC\b/, 'disk_full'],
];

/** The reason of a failure; `stall` is the watch's verdict of the attempt, when it gave up. */
export function offlineReason(err: unknown, stall?: { stalled: boolean; slow: boolean }): OfflineReason {
  if (stall?.stalled) return stall.slow ? 'too_slow' : 'stalled';
  if (err instanceof HttpError) return LIMIT_REASON[err.error] ?? (err.error === 'resource_exhausted' ? 'disk_full' : 'unknown');
  if (err instanceof BlockedAddressError) return 'private_address';
  const text = `${(err as { code?: string })?.code ?? ''} ${(err as Error)?.message ?? String(err)}`;
  for (const [re, reason] of NODE_CODES) if (re.test(text)) return reason;
  const status = /answered (\d{3})/.exec(text)?.[1];
  if (status) return status === '404' || status === '410' ? 'not_found' : status === '401' || status === '403' ? 'forbidden' : 'http_error';
  if (/redirect|not http or https|Only http and https/i.test(text)) return 'bad_link';
  if (/Nothing was received/.test(text)) return 'empty';
  if (err instanceof TorrentError) {
    if (/metadata|no peer|file list/i.test(text)) return 'no_peers';
    if (/not a valid torrent|info hash|lists no files|None of the chosen/i.test(text)) return 'bad_torrent';
    return 'torrent_engine';
  }
  return 'unknown';
}
