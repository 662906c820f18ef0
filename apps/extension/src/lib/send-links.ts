/**
 * Hands links to Haul as cloud downloads: one createFile call, the route the web app's cloud download dialog uses
 * (upload_type UPLOAD_TYPE_URL, a link a line, or a .torrent file as base64), into the folder chosen in the options
 * (the top of the drive until then). The server refuses the lot when one link is bad, so the links are checked here
 * first. `fileIds` keeps only those files of a single torrent (the popup's file picker).
 */
import type { DriveTask } from '@haul/shared';
import { FILE_KIND } from '@haul/shared/plain';
import { currentConnection } from './haul-client';
import { isFetchable, unique } from './links';
import { folderName, readStored, TOP_FOLDER } from './storage';
import { addedWords, describeFailure, limitLinkOf, noLinkWords, notConnectedWords, signedOutWords, type LimitLink } from './words';

/** What came of a send: the tasks made, the sentence to show either way, and the limit's dialog when one stopped it. */
export interface SendResult {
  ok: boolean;
  tasks: DriveTask[];
  message: string;
  limit?: LimitLink | null;
}

/** What to add: links (http, https, magnet), or one .torrent file's bytes as base64; optionally a torrent's files. */
export interface SendRequest {
  links?: string[];
  torrent?: { base64: string; name: string };
  fileIds?: number[];
}

const refused = (message: string): SendResult => ({ ok: false, tasks: [], message });

export async function send(request: SendRequest): Promise<SendResult> {
  const candidates = request.links ?? [];
  const links = unique(candidates).filter(isFetchable);
  const skipped = unique(candidates).length - links.length;
  if (!links.length && !request.torrent) return refused(noLinkWords());
  const conn = await currentConnection();
  if (conn.state === 'none') return refused(notConnectedWords());
  if (conn.state === 'signed-out') return refused(signedOutWords());
  const folder = (await readStored('folder')) ?? TOP_FOLDER;
  try {
    const answer = await conn.client.call('createFile', {
      body: {
        kind: FILE_KIND,
        upload_type: 'UPLOAD_TYPE_URL',
        url: { url: links.join('\n') },
        parent_id: folder.id,
        ...(request.torrent ? { torrent: request.torrent.base64 } : {}),
        ...(request.fileIds ? { params: { file_ids: request.fileIds.join(',') } } : {}),
      },
    });
    const tasks = answer.tasks ?? (answer.task ? [answer.task] : []);
    const count = tasks.length || links.length + (request.torrent ? 1 : 0);
    return { ok: true, tasks, message: addedWords(count, folderName(folder), skipped) };
  } catch (err) {
    return { ok: false, tasks: [], message: describeFailure(err, conn.server), limit: limitLinkOf(err, conn.server) };
  }
}

/** Sends links as they are (the context menu, a caught magnet click). */
export const sendLinks = (candidates: string[]): Promise<SendResult> => send({ links: candidates });
