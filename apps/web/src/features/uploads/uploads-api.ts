/** The upload calls: create (or speed-upload) a file, the large-file pre-check, task progress and cancel. */
import { FILE_KIND, FOLDER_TYPE_NORMAL, LIMITS } from '@haul/shared/plain';
import { haul } from '../../lib/api-client';

export function createUpload(input: {
  parentId: string;
  name: string;
  size: number;
  hash?: string;
  proof?: { challenge: string; answer: string };
  /** The upload's own id (folder, name, size, type, path): asked again after a lost answer, the same upload answers. */
  id: string;
  /** The live file of this name in the folder goes to the trash when this one is placed. */
  replace?: boolean;
}) {
  const answer = haul.call('createFile', {
    body: {
      kind: FILE_KIND,
      id: input.id,
      parent_id: input.parentId,
      name: input.name,
      size: String(input.size),
      hash: input.hash,
      upload_type: 'UPLOAD_TYPE_RESUMABLE',
      folder_type: FOLDER_TYPE_NORMAL,
      resumable: { provider: 'PROVIDER_TUS' },
      proof: input.proof,
      replace: input.replace || undefined,
    },
  });
  return answer;
}

/**
 * Which of `names` belong to a live file of the folder (a folder of that name is never replaced: the server gives
 * the upload a number). An unanswered question finds none, and the uploads keep both as the server does by itself.
 */
export async function clashingFiles(parentId: string, names: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const unique = [...new Set(names)];
  try {
    for (let i = 0; i < unique.length; i += LIMITS.batchMaxIds) {
      const answer = await haul.call('nameClashes', { body: { parent_id: parentId, names: unique.slice(i, i + LIMITS.batchMaxIds) } });
      for (const c of answer.clashes) if (c.kind === FILE_KIND) out.add(c.name);
    }
  } catch {
    return new Set();
  }
  return out;
}

export const cidExists = (cid: string, size: number) => haul.call('checkCid', { query: { cid, file_size: size } }).then((r) => r.exists);

export const getTask = (id: string) => haul.call('getTask', { params: { id } });

export const deleteTasks = (ids: string[], deleteFiles: boolean) =>
  haul.call('deleteTasks', { query: { task_ids: ids, delete_files: deleteFiles } });
