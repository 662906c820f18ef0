/** Cloud downloads on the server: add links, list tasks, pause, continue, retry, remove and clear. */
import type { Answer } from '@haul/client';
import { FILE_KIND, PHASE } from '@haul/shared/plain';
import type { CreateFileBody, DriveTask } from '@haul/shared';
import { haul } from '../../lib/api-client';

export const OFFLINE = 'offline';

/** Phases a cloud task can still leave (the "cloud download" tab); COMPLETE goes to "completed". */
export const CLOUD_UNFINISHED: readonly string[] = [PHASE.UNKNOWN, PHASE.PENDING, PHASE.RUNNING, PHASE.PAUSED, PHASE.ERROR];

/**
 * One task per line of `text`, plus one for a .torrent file (base64); `fileIds` keeps only those files of a single
 * torrent. The server refuses the lot when one link is bad.
 */
export const addCloudDownloads = (
  text: string,
  parentId: string,
  torrent?: { base64?: string; fileIds?: number[] },
  extra?: { name?: string; credentials?: CreateFileBody['credentials'] },
) =>
  haul.call('createFile', {
    body: {
      kind: FILE_KIND,
      upload_type: 'UPLOAD_TYPE_URL',
      url: { url: text },
      parent_id: parentId,
      ...(torrent?.base64 ? { torrent: torrent.base64 } : {}),
      ...(torrent?.fileIds ? { params: { file_ids: torrent.fileIds.join(',') } } : {}),
      ...(extra?.name ? { name: extra.name } : {}),
      ...(extra?.credentials ? { credentials: extra.credentials } : {}),
    },
  });

/** A torrent's name, size and files, to choose from. */
export type TorrentListing = Answer<'inspectTorrent'>;

/** The files of a magnet link or a .torrent file (base64), to choose from. */
export const inspectTorrent = (source: { url: string } | { torrent: string }) => haul.call('inspectTorrent', { body: source });

/** Seed 000 §5: a torrent is a file named *.torrent or typed application/x-bittorrent. */
export const isTorrentFile = (f: { name: string; type: string }) => /\.torrent$/i.test(f.name) || f.type === 'application/x-bittorrent';

/** A file's bytes as base64 (a .torrent file travels in the JSON body). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** Unpacking tasks (cloud decompression) share the cloud tab. */
export const DECOMPRESS = 'decompress';

/** The person's cloud downloads and unpacking tasks, newest first, with the finished ones' files. */
export const listCloudTasks = (signal?: AbortSignal) =>
  Promise.all(
    [OFFLINE, DECOMPRESS].map((type) => haul.call('listTasks', { query: { type, limit: 1000, with: 'reference_resource' }, signal }).then((r) => r.tasks)),
  ).then(([offline, unpacking]) => [...offline!, ...unpacking!].sort((a, b) => b.created_time.localeCompare(a.created_time)));

export const setCloudPhase = (id: string, phase: typeof PHASE.PAUSED | typeof PHASE.PENDING) =>
  haul.call('updateTask', { params: { id }, body: { phase } });

export const retryCloudTask = (id: string) => haul.call('retryTask', { body: { id, create_type: 'RETRY', type: OFFLINE } });

export const removeCloudTasks = (ids: string[], deleteFiles: boolean) =>
  haul.call('deleteTasks', { query: { task_ids: ids, delete_files: deleteFiles } });

export const clearFinishedCloudTasks = () =>
  Promise.all([OFFLINE, DECOMPRESS].map((type) => haul.call('clearTasks', { body: { type, phases: [PHASE.COMPLETE], delete_files: false } })));

/** Lines that are not http(s) or magnet links (seed 000 §5: a URL is valid if it starts with http or https). */
export function badLinks(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^(https?:\/\/\S+|magnet:\?\S+)$/i.test(l));
}

/** Seconds left at the last reported speed, or null when unknown. */
export function etaSeconds(task: DriveTask): number | null {
  const size = Number(task.params.size);
  const received = Number(task.params.received);
  const speed = Number(task.params.speed);
  if (!(size > 0) || !(speed > 0) || !(received >= 0) || received > size) return null;
  return Math.ceil((size - received) / speed);
}

/** What a link holds (name, size, type; a torrent's files) and whether the server has it already; nothing is stored. */
export type UrlCheck = Answer<'checkUrl'>;
export const checkUrl = (url: string, signal?: AbortSignal) => haul.call('checkUrl', { body: { url }, signal });

/** A checked .torrent link's file, as if picked from the disk. */
export function torrentFileOf(check: UrlCheck): File | null {
  if (!check.torrent_file) return null;
  const bytes = Uint8Array.from(atob(check.torrent_file), (c) => c.charCodeAt(0));
  return new File([bytes], /\.torrent$/i.test(check.name) ? check.name : `${check.name}.torrent`, { type: 'application/x-bittorrent' });
}

export type PlayableTaskFile = Answer<'listPlayableTaskFiles'>['files'][number];
/** The songs and videos of a torrent still downloading, each with a link that plays what has arrived. */
export const listPlayableTaskFiles = (id: string) => haul.call('listPlayableTaskFiles', { params: { id } }).then((r) => r.files);
