/** The drive calls of the file manager (seed 000 §7), typed with the shared wire shapes. */
import { FILE_KIND, FOLDER_KIND, LIMITS, PHASE, type Breadcrumb, type DriveFile, type FileList, type SortOrder } from '@haul/shared';
import { api } from '../../lib/api-client';

export type Filters = Record<string, Record<string, unknown>>;

/** The filters every live listing sends: not trashed, complete. */
export const LIVE_FILTERS: Filters = { trashed: { eq: false }, phase: { eq: PHASE.COMPLETE } };
export const TRASH_FILTERS: Filters = { trashed: { eq: true }, phase: { eq: PHASE.COMPLETE } };

export interface ListParams {
  parentId: string;
  filters?: Filters;
  order?: SortOrder;
  limit?: number;
  pageToken?: string;
}

export function listFiles(p: ListParams, signal?: AbortSignal): Promise<FileList> {
  return api.get<FileList>(
    '/drive/v1/files',
    {
      parent_id: p.parentId,
      limit: p.limit ?? LIMITS.listDefault,
      page_token: p.pageToken || undefined,
      filters: JSON.stringify(p.filters ?? LIVE_FILTERS),
      order: p.order,
      with_audit: true,
    },
    signal,
  );
}

export const getFile = (id: string) => api.get<DriveFile>(`/drive/v1/files/${encodeURIComponent(id)}`);
export const getAncestors = (id: string) =>
  api.get<{ ancestors: Breadcrumb[] }>(`/drive/v1/files/${encodeURIComponent(id)}/ancestors`).then((r) => r.ancestors);

export const createFolder = (parentId: string, name: string) =>
  api.post<{ file: DriveFile }>('/drive/v1/files', { kind: FOLDER_KIND, parent_id: parentId, name }).then((r) => r.file);
export const renameFile = (id: string, name: string) => api.patch<DriveFile>(`/drive/v1/files/${encodeURIComponent(id)}`, { name });

/** Batch calls take at most LIMITS.batchMaxIds ids; larger selections go in chunks, one after another. */
async function inChunks(ids: string[], call: (chunk: string[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < ids.length; i += LIMITS.batchMaxIds) await call(ids.slice(i, i + LIMITS.batchMaxIds));
}

export const trashFiles = (ids: string[]) => inChunks(ids, (c) => api.post('/drive/v1/files:batchTrash', { ids: c }));
export const untrashFiles = (ids: string[]) => inChunks(ids, (c) => api.post('/drive/v1/files:batchUntrash', { ids: c }));
export const deleteFiles = (ids: string[]) => inChunks(ids, (c) => api.post('/drive/v1/files:batchDelete', { ids: c }));
export const moveFiles = (ids: string[], parentId: string) =>
  inChunks(ids, (c) => api.post('/drive/v1/files:batchMove', { ids: c, to: { parent_id: parentId } }));
export const copyFiles = (ids: string[], parentId: string) =>
  inChunks(ids, (c) => api.post('/drive/v1/files:batchCopy', { ids: c, to: { parent_id: parentId } }));
export const starFiles = (ids: string[]) => inChunks(ids, (c) => api.post('/drive/v1/files:star', { ids: c }));
export const unstarFiles = (ids: string[]) => inChunks(ids, (c) => api.post('/drive/v1/files:unstar', { ids: c }));
export const emptyTrash = () => api.patch('/drive/v1/files/trash:empty');

export const isFolder = (f: Pick<DriveFile, 'kind'>) => f.kind === FOLDER_KIND;
export { FILE_KIND };
