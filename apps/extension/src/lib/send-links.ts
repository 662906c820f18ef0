/**
 * Hands links to Haul as cloud downloads: one createFile call, the route the web app's cloud download dialog uses
 * (upload_type UPLOAD_TYPE_URL, a link a line), into the folder chosen in the options (the top of the drive until
 * then). The server refuses the lot when one link is bad, so the links are checked here first.
 */
import type { DriveTask } from '@haul/shared';
import { FILE_KIND } from '@haul/shared/plain';
import { currentConnection } from './haul-client';
import { isFetchable, unique } from './links';
import { readStored, TOP_FOLDER } from './storage';
import { addedWords, describeFailure, NO_LINK, NOT_CONNECTED, SIGNED_OUT } from './words';

/** What came of a send: the tasks made, and the sentence to show either way. */
export interface SendResult {
  ok: boolean;
  tasks: DriveTask[];
  message: string;
}

export async function sendLinks(candidates: string[]): Promise<SendResult> {
  const links = unique(candidates).filter(isFetchable);
  const skipped = unique(candidates).length - links.length;
  if (!links.length) return { ok: false, tasks: [], message: NO_LINK };
  const conn = await currentConnection();
  if (conn.state === 'none') return { ok: false, tasks: [], message: NOT_CONNECTED };
  if (conn.state === 'signed-out') return { ok: false, tasks: [], message: SIGNED_OUT };
  const folder = (await readStored('folder')) ?? TOP_FOLDER;
  try {
    const answer = await conn.client.call('createFile', {
      body: { kind: FILE_KIND, upload_type: 'UPLOAD_TYPE_URL', url: { url: links.join('\n') }, parent_id: folder.id },
    });
    const tasks = answer.tasks ?? (answer.task ? [answer.task] : []);
    return { ok: true, tasks, message: addedWords(tasks.length || links.length, folder.name, skipped) };
  } catch (err) {
    return { ok: false, tasks: [], message: describeFailure(err, conn.server) };
  }
}
