/** The upload calls: create (or speed-upload) a file, the large-file pre-check, task progress and cancel. */
import { FILE_KIND, FOLDER_TYPE_NORMAL } from '@haul/shared';
import { haul } from '../../lib/api-client';

export function createUpload(input: {
  parentId: string;
  name: string;
  size: number;
  hash?: string;
  proof?: { challenge: string; answer: string };
  /** The upload's own id (folder, name, size, type, path): asked again after a lost answer, the same upload answers. */
  id: string;
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
    },
  });
  return answer;
}

export const cidExists = (cid: string, size: number) => haul.call('checkCid', { query: { cid, file_size: size } }).then((r) => r.exists);

export const getTask = (id: string) => haul.call('getTask', { params: { id } });

export const deleteTasks = (ids: string[], deleteFiles: boolean) =>
  haul.call('deleteTasks', { query: { task_ids: ids, delete_files: deleteFiles } });
