/** The drive calls of the file manager (seed 000 §7), typed with the shared wire shapes. */
import { FILE_KIND, FOLDER_KIND, LIMITS, PHASE } from '@haul/shared/plain';
import type { FileList, SortOrder } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { takeFirstPage, unlessAborted } from './first-page';
import { isFolder } from './file-kind';

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

export async function listFiles(p: ListParams, signal?: AbortSignal): Promise<FileList> {
  const query = {
    parent_id: p.parentId,
    limit: p.limit ?? LIMITS.listDefault,
    page_token: p.pageToken || undefined,
    filters: JSON.stringify(p.filters ?? LIVE_FILTERS),
    order: p.order,
    with_audit: 'true',
  };
  // On a cold start the open folder's first page may already be on its way (index.html): taken if it is this request.
  if (typeof window !== 'undefined' && window.__haulFirstPage) {
    const early = takeFirstPage(haul.url('listFiles', { query }), await haul.token());
    const page = early && (await unlessAborted(early, signal));
    if (page) return page;
  }
  return haul.call('listFiles', { query, signal });
}

export const getFile = (id: string) => haul.call('getFile', { params: { id } });
export const getAncestors = (id: string) => haul.call('fileAncestors', { params: { id } }).then((r) => r.ancestors);

// The answer's file is null only for uploads still to come; a folder is made at once.
export const createFolder = (parentId: string, name: string) =>
  haul.call('createFile', { body: { kind: FOLDER_KIND, parent_id: parentId, name } }).then((r) => r.file!);
export const renameFile = (id: string, name: string) => haul.call('updateFile', { params: { id }, body: { name } });

/** Batch calls take at most LIMITS.batchMaxIds ids; larger selections go in chunks, one after another. */
async function inChunks(ids: string[], call: (chunk: string[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < ids.length; i += LIMITS.batchMaxIds) await call(ids.slice(i, i + LIMITS.batchMaxIds));
}

export const trashFiles = (ids: string[]) => inChunks(ids, (c) => haul.call('batchTrash', { body: { ids: c } }));
export const untrashFiles = (ids: string[]) => inChunks(ids, (c) => haul.call('batchUntrash', { body: { ids: c } }));
export const deleteFiles = (ids: string[]) => inChunks(ids, (c) => haul.call('batchDelete', { body: { ids: c } }));
export const moveFiles = (ids: string[], parentId: string) =>
  inChunks(ids, (c) => haul.call('batchMove', { body: { ids: c, to: { parent_id: parentId } } }));
export const copyFiles = (ids: string[], parentId: string) =>
  inChunks(ids, (c) => haul.call('batchCopy', { body: { ids: c, to: { parent_id: parentId } } }));
export const starFiles = (ids: string[]) => inChunks(ids, (c) => haul.call('star', { body: { ids: c } }));
export const unstarFiles = (ids: string[]) => inChunks(ids, (c) => haul.call('unstar', { body: { ids: c } }));
export const emptyTrash = () => haul.call('emptyTrash');

export { isFolder };
export { FILE_KIND };
