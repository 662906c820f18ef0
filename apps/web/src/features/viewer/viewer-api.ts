/**
 * A file's details for the viewer (links and media entries), from the drive or through a share, kept in a cache of
 * the 30 most recent (seed 001 §4) so that going back and forth shows files at once.
 */
import type { DriveFile, DriveMedia } from '@haul/shared';
import { mediaTypeOf } from '@haul/shared/plain';
import { haul } from '../../lib/api-client';
import { shareFileInfo } from '../shares/shares-api';
import type { ViewerSource } from './viewer-store';
import type { Probe } from './viewer-errors';

const MAX = 30;
const cache = new Map<string, Promise<DriveFile>>();

function fetchDetail(file: DriveFile, source: ViewerSource): Promise<DriveFile> {
  // usage=PLAY starts a video's transcode: only for what plays.
  const media = mediaTypeOf(file.name, file.mime_type);
  const play = media === 'video' || media === 'audio';
  if (source.kind === 'share') {
    // Through a share: what this visitor may play (the whole, or a preview of the renditions); the download link
    // for anything else.
    return shareFileInfo(source.access, file.id, play).then((f) => ({ ...f, medias: f.medias ?? originOnly(f) }));
  }
  const detail = haul.call('getFile', {
    params: { id: file.id },
    query: { usage: play ? 'PLAY' : undefined, thumbnail_size: 'SIZE_LARGE' },
  });
  return detail;
}

function originOnly(f: DriveFile): DriveMedia[] {
  if (!f.web_content_link) return [];
  return [
    {
      media_id: 'origin',
      media_name: 'Original',
      resolution_name: '',
      is_origin: true,
      is_visible: true,
      need_more_quota: false,
      link: { url: f.web_content_link, expire: '' },
      video: null,
      phase: 'PHASE_TYPE_COMPLETE',
      progress: 100,
      message: '',
    },
  ];
}

const key = (file: DriveFile, source: ViewerSource) => `${source.kind === 'share' ? source.access.shareId : 'drive'}:${file.id}`;

/** The cached details, or a fetch; a failed fetch is not kept, so retry asks again. */
export function viewerDetail(file: DriveFile, source: ViewerSource): Promise<DriveFile> {
  const k = key(file, source);
  let p = cache.get(k);
  if (p) {
    cache.delete(k);
  } else {
    p = fetchDetail(file, source);
    p.catch(() => cache.delete(k));
  }
  cache.set(k, p);
  while (cache.size > MAX) cache.delete(cache.keys().next().value!);
  return p;
}

/** Drops a file's details (after a rename, a reload request, or to see a transcode's progress). */
export function forgetDetail(file: DriveFile, source: ViewerSource): void {
  cache.delete(key(file, source));
}

/** TYPE_PLAY with how long the file is and how far it was played (seconds), for the watch history. */
export const reportPlay = (fileId: string, duration: number, played: number) =>
  haul.call('recordEvent', {
    body: {
      event: {
        type: 'TYPE_PLAY',
        file_id: fileId,
        params: { play_duration: String(Math.round(duration)), play_seconds: String(Math.round(played)) },
      },
    },
  });

/**
 * The first `cap` bytes of a file through its download link (a Range request) and whether the file goes on past
 * them. A server that ignores the Range is read only up to `cap` too.
 */
export async function readHead(link: string, size: number, cap: number, signal: AbortSignal): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const res = await fetch(link, { headers: size > cap ? { Range: `bytes=0-${cap - 1}` } : {}, signal });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
  const reader = res.body.getReader();
  const bytes = new Uint8Array(Math.min(size, cap));
  let filled = 0;
  while (filled < bytes.length) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes.set(value.subarray(0, bytes.length - filled), filled);
    filled += Math.min(value.length, bytes.length - filled);
  }
  void reader.cancel().catch(() => undefined);
  return { bytes: bytes.subarray(0, filled), cut: size > filled };
}

/**
 * Asks a link that failed to play why (seed 001 §7–§8): the first byte only, never cached. Status -1 when it cannot be
 * reached at all; an error answer's name, code and description when the server sent its error object.
 */
export async function probeLink(link: string): Promise<Probe> {
  let res: Response;
  try {
    res = await fetch(link, { headers: { Range: 'bytes=0-0' }, cache: 'no-store' });
  } catch {
    return { status: -1 };
  }
  if (res.ok) {
    void res.body?.cancel().catch(() => undefined);
    return { status: res.status };
  }
  const body = (await res.json().catch(() => null)) as { error?: string; error_code?: number; error_description?: string } | null;
  return { status: res.status, error: body?.error, errorCode: body?.error_code, description: body?.error_description };
}
