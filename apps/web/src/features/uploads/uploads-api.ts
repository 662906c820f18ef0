/** The upload calls: create (or speed-upload) a file, the large-file pre-check, task progress and cancel. */
import { FILE_KIND, FOLDER_TYPE_NORMAL, type DriveFile } from '@haul/shared';
import { api } from '../../lib/api-client';

export interface ServerTask {
  id: string;
  phase: string;
  progress: number;
  message?: string;
  file_id?: string;
  file?: DriveFile | null;
}

export interface CreateUploadAnswer {
  upload_type: string;
  file: DriveFile | null;
  task: ServerTask | null;
  resumable: { provider: string; params: { key: string; upload_url: string; expires_at: string } } | null;
  proof_of_possession?: { challenge: string; ranges: { start: number; end: number }[] };
}

export function createUpload(input: {
  parentId: string;
  name: string;
  size: number;
  hash?: string;
  proof?: { challenge: string; answer: string };
  /** The upload's own id (folder, name, size, type, path): asked again after a lost answer, the same upload answers. */
  id: string;
}): Promise<CreateUploadAnswer> {
  return api.post<CreateUploadAnswer>('/drive/v1/files', {
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
  });
}

export const cidExists = (cid: string, size: number) =>
  api.get<{ exists: boolean }>('/drive/v1/resource/cid', { cid, file_size: size }).then((r) => r.exists);

export const getTask = (id: string) => api.get<ServerTask>(`/drive/v1/tasks/${encodeURIComponent(id)}`);

export const deleteTasks = (ids: string[], deleteFiles: boolean) =>
  api.delete('/drive/v1/tasks', { task_ids: ids, delete_files: deleteFiles });
