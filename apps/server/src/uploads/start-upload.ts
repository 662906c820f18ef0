/** Starting an upload: POST files with upload_type UPLOAD_TYPE_RESUMABLE, answered as the seeds' create-file answer. */
import type { CreateFileAnswer } from '@haul/shared';
import type { AppContext } from '../context.js';
import { presentFile } from '../files/files.presenter.js';
import { requireFile } from '../files/files.repository.js';
import { badInput } from '../http/errors.js';
import { publicUrl } from '../http/public-url.js';
import { isContentHash } from '../storage/blob-store.js';
import { requireTask } from '../tasks/tasks.repository.js';
import { presentTask } from '../tasks/tasks.presenter.js';
import type { UploadStore } from './upload-store.js';
import { createUpload } from './uploads.service.js';

/** Handles POST files for a resumable upload; answers the seed's {upload_type, file, task, resumable}. */
export async function startUpload(
  ctx: AppContext,
  store: UploadStore,
  userId: string,
  body: { name?: string; parent_id?: string; size?: string | number; hash?: string; proof?: { challenge: string; answer: string }; id?: string; replace?: boolean },
): Promise<CreateFileAnswer> {
  if (body.size === undefined) throw badInput('size is required for an upload.');
  const hash = body.hash ? body.hash.toLowerCase() : undefined;
  if (hash && !isContentHash(hash)) throw badInput('hash must be the 64-digit hex BLAKE3 hash of the file.');
  const result = await createUpload(ctx, store, userId, { name: body.name ?? '', size: Number(body.size), hash, parentId: body.parent_id ?? '', proof: body.proof, clientKey: body.id, replace: body.replace });
  const retentionMs = ctx.config.trashRetentionDays * 86_400_000;
  const base: CreateFileAnswer = { upload_type: 'UPLOAD_TYPE_RESUMABLE', file: null, task: null, resumable: null };
  if (result.kind === 'prove') return { ...base, proof_of_possession: result.challenge };
  if (result.kind === 'speed') {
    const file = presentFile(await requireFile(ctx.db, userId, result.fileId), { retentionMs });
    return { ...base, file, task: presentTask(await requireTask(ctx.db, userId, result.taskId), file) };
  }
  const { upload } = result;
  return {
    ...base,
    task: presentTask(await requireTask(ctx.db, userId, upload.task_id)),
    resumable: {
      kind: 'drive#resumable' as const,
      provider: 'PROVIDER_TUS' as const,
      params: {
        key: upload.id,
        upload_url: `${publicUrl(ctx)}/drive/v1/uploads/${upload.id}`,
        expires_at: new Date(upload.expires_at).toISOString(),
      },
    },
  };
}
