/**
 * Which error popup a failure shows (seed 001 §8), apart from React: the cause, the code shown, and the buttons.
 * Codes: 1001 an image or a play entry without a link, 1002 a network failure, 9 a file in the trash
 * (file_in_recycle_bin), the server's own error_code for any other answer, none for a format the browser cannot play.
 */
import { ERROR_CODES } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { isApiError, LOCAL_ERROR } from '../../lib/api-error';
import { errorMessage, errorText } from '../../lib/error-message';
import type { ViewKind } from './view-kind';

export const NO_LINK_CODE = 1001;
export const NETWORK_CODE = 1002;

export type FailureCause = 'no_link' | 'network' | 'deleted' | 'server' | 'unsupported';

export interface ViewerFailure {
  cause: FailureCause;
  /** The code shown under the title; null for a format the browser cannot play. */
  code: number | null;
  /** The words of the server's answer in the reader's language (lib/error-message), for `server`. */
  message?: string;
}

/** What a player or the photo view saw go wrong. */
export interface MediaFault {
  /** The link that failed; absent when there was none to load (code 1001). */
  link?: string;
  /** The media element's own verdict: MEDIA_ERR_NETWORK, or anything else (decode, format, aborted). */
  element?: 'network' | 'other';
}

/** What a probe of the failed link learned: status -1 when it could not be fetched at all (seed 001 §8). */
export interface Probe {
  status: number;
  error?: string;
  errorCode?: number;
  description?: string;
}

const deleted: ViewerFailure = { cause: 'deleted', code: ERROR_CODES.file_in_recycle_bin };
const network: ViewerFailure = { cause: 'network', code: NETWORK_CODE };

/** A failed details call: the trash, the network, or the server's own words. */
export function failureOfCall(err: unknown): ViewerFailure {
  if (isApiError(err, 'file_in_recycle_bin')) return deleted;
  if (!isApiError(err) || err.code === LOCAL_ERROR || err.status === 0) return network;
  return { cause: 'server', code: err.body?.error_code ?? null, message: errorMessage(err) };
}

/** A details answer that cannot be shown as it is: trashed, or without anything to load. Null when it can. */
export function failureOfDetail(kind: ViewKind | null, detail: DriveFile): ViewerFailure | null {
  if (detail.trashed) return deleted;
  if (kind === 'image' && !detail.web_content_link && !detail.thumbnail_link) return { cause: 'no_link', code: NO_LINK_CODE };
  if ((kind === 'video' || kind === 'audio') && !detail.web_content_link && !detail.medias?.some((m) => m.link.url || !m.is_visible))
    return { cause: 'no_link', code: NO_LINK_CODE };
  return null;
}

/**
 * A link that failed to play, once probed and, if the probe got an error answer, the details fetched again: the link
 * unreachable is the network; reachable, the browser cannot play it (unless the element itself saw the network fail);
 * an error answer is the trash when the file went there, else the server's words.
 */
export function failureOfProbe(fault: MediaFault, probe: Probe, refreshed?: { detail?: DriveFile; error?: unknown }): ViewerFailure {
  if (!fault.link) return { cause: 'no_link', code: NO_LINK_CODE };
  if (probe.status < 0) return network;
  if (probe.status < 300) return fault.element === 'network' ? network : { cause: 'unsupported', code: null };
  if (refreshed?.error !== undefined) return failureOfCall(refreshed.error);
  if (refreshed?.detail?.trashed || probe.error === 'file_in_recycle_bin') return deleted;
  const message = probe.error || probe.description ? errorText({ error: probe.error, error_description: probe.description }) : undefined;
  return { cause: 'server', code: probe.errorCode ?? probe.status, message };
}

export type FailureButton = 'retry' | 'next' | 'external' | 'download';

/**
 * The popup's buttons. Network and server failures: retry and next. The trash: next and retry. A format the browser
 * cannot play: a player on this computer for video and audio (desktop only: Haul has no mobile app to hand it to),
 * download, and next. Next only when there is a next file.
 */
export function buttonsFor(
  f: ViewerFailure,
  kind: ViewKind | null,
  opts: { mobile: boolean; hasNext: boolean; canDownload: boolean },
): FailureButton[] {
  const next: FailureButton[] = opts.hasNext ? ['next'] : [];
  if (f.cause === 'deleted') return [...next, 'retry'];
  if (f.cause !== 'unsupported') return ['retry', ...next];
  const player = kind === 'video' || kind === 'audio';
  return [
    ...(player && !opts.mobile && opts.canDownload ? (['external'] as const) : []),
    ...(opts.canDownload ? (['download'] as const) : []),
    ...next,
  ];
}

/** The picture of the popup: a network one, or the unsupported one (seed 001 §8). */
export const pictureOf = (f: ViewerFailure): 'network' | 'unsupported' => (f.cause === 'network' ? 'network' : 'unsupported');
