/**
 * Every change to files goes through here: call the API, then pick the change up in the local database (incremental
 * sync) and refresh the server-backed lists. Failures show a toast with the server's words.
 */
import type { DriveFile } from '@haul/shared';
import { checkName, NAME_PROBLEM_TEXT, randomSuffix, withSuffix } from '@haul/shared/plain';
import { goTo } from '../../lib/go-to';
import i18n from 'i18next';
import { toast } from 'sonner';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { track } from '../../lib/pending-work';
import { deleteLocal, putLocal, updateLocal } from '../sync/local-files';
import * as filesApi from './files-api';
import { downloadFits } from '../limits/download-check';
import { settleFileChanges } from './settle-changes';

/** What a success toast offers besides its words: undoing the change, and going to where it put things. */
export interface Afterwards {
  undo?: () => Promise<unknown>;
  /** A drive path, e.g. the folder things were moved to. */
  open?: string;
}

/** Runs a change as pending work (the leave-page guard); returns false, after a toast, when it failed. */
export async function runChange(work: () => Promise<unknown>, success?: string, after: Afterwards = {}): Promise<boolean> {
  try {
    await track(work);
    if (success) {
      const { undo, open } = after;
      toast.success(success, {
        // Long enough to reach for Undo.
        duration: undo || open ? 10_000 : undefined,
        action: undo ? { label: i18n.t('common.undo'), onClick: () => void runChange(undo, i18n.t('common.undone')) } : undefined,
        cancel: open ? { label: i18n.t('files.openFolder'), onClick: () => goTo(open) } : undefined,
      });
    }
    await settleFileChanges();
    return true;
  } catch (err) {
    const msg = errorMessage(err);
    if (msg) toast.error(msg);
    // Not awaited: offline, the sync waits for the network, and the person must get the dialog back at once.
    void settleFileChanges().catch(() => undefined);
    return false;
  }
}

export function nameProblem(raw: string): string | null {
  const { problem } = checkName(raw);
  return problem ? i18n.t(`names.${problem}`, { defaultValue: NAME_PROBLEM_TEXT[problem] }) : null;
}

/** Creates a folder; a clashing name is retried once with a four-hex-digit suffix, as the seeds do. */
export async function createFolder(parentId: string, name: string): Promise<DriveFile | null> {
  let created: DriveFile | null = null;
  await runChange(async () => {
    try {
      created = await filesApi.createFolder(parentId, name);
    } catch (err) {
      if (!isApiError(err, 'file_duplicated_name')) throw err;
      created = await filesApi.createFolder(parentId, withSuffix(name, randomSuffix()));
    }
    // Written locally at once so the new folder shows without waiting for the sync.
    await putLocal([{ ...created, local_sync_timestamp: Date.now() }]);
  });
  return created;
}

/** Renames quietly; `undoable` adds the toast that can take it back (not for the undo itself). */
export const renameFile = (file: DriveFile, name: string, undoable = true): Promise<boolean> =>
  runChange(
    async () => {
      const updated = await filesApi.renameFile(file.id, name);
      await updateLocal([{ id: file.id, changes: { name: updated.name, modified_time: updated.modified_time } }]);
    },
    undoable ? i18n.t('files.renamed') : undefined,
    { undo: () => renameFile({ ...file, name }, file.name, false) },
  );

const ids = (files: DriveFile[]) => files.map((f) => f.id);

export const trashFiles = (files: DriveFile[]) =>
  runChange(
    async () => {
      await filesApi.trashFiles(ids(files));
      await deleteLocal(ids(files));
      await forgetUploads(ids(files));
    },
    i18n.t('files.trashed', { count: files.length }),
    { undo: () => filesApi.untrashFiles(ids(files)) },
  );

export const untrashFiles = (files: DriveFile[]) =>
  runChange(() => filesApi.untrashFiles(ids(files)), i18n.t('files.restored', { count: files.length }));
export const deleteForever = (files: DriveFile[]) =>
  runChange(async () => {
    await filesApi.deleteFiles(ids(files));
    await forgetUploads(ids(files));
  }, i18n.t('files.deleted', { count: files.length }));

/** The upload manager is loaded on demand (with the first upload): a list that never uploaded has nothing to forget. */
const forgetUploads = async (fileIds: string[]) => (await import('../uploads/upload-manager')).forgetUploadsOf(fileIds);
export const emptyTrash = () => runChange(() => filesApi.emptyTrash(), i18n.t('trash.emptied'));

const folderPath = (parentId: string) => (parentId ? `/all/${parentId}` : '/all');

/** Moves items into a folder; the toast can move each back where it was, or open the folder. */
export const moveFiles = (files: DriveFile[], parentId: string) =>
  runChange(
    async () => {
      await filesApi.moveFiles(ids(files), parentId);
      await updateLocal(files.map((f) => ({ id: f.id, changes: { parent_id: parentId } })));
    },
    i18n.t('files.moved', { count: files.length }),
    {
      open: folderPath(parentId),
      undo: async () => {
        for (const from of new Set(files.map((f) => f.parent_id))) {
          const back = files.filter((f) => f.parent_id === from);
          await filesApi.moveFiles(ids(back), from);
          await updateLocal(back.map((f) => ({ id: f.id, changes: { parent_id: from } })));
        }
      },
    },
  );

export const copyFiles = (files: DriveFile[], parentId: string) =>
  runChange(() => filesApi.copyFiles(ids(files), parentId), i18n.t('files.copied', { count: files.length }), { open: folderPath(parentId) });

export const setStar = (files: DriveFile[], star: boolean) =>
  runChange(
    async () => {
      await (star ? filesApi.starFiles : filesApi.unstarFiles)(ids(files));
      await updateLocal(files.map((f) => ({ id: f.id, changes: { star: star ? 1 : 0 } })));
    },
    star ? i18n.t('files.starred') : i18n.t('files.unstarred'),
    {
      undo: async () => {
        await (star ? filesApi.unstarFiles : filesApi.starFiles)(ids(files));
        await updateLocal(files.map((f) => ({ id: f.id, changes: { star: f.star } })));
      },
    },
  );

/** Lets the browser save what a signed link serves (sent as an attachment, so the page stays). */
export function clickDownload(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Downloads one file through its signed web_content_link (fetched fresh: links expire). */
export async function downloadFile(file: DriveFile): Promise<void> {
  try {
    const full = await filesApi.getFile(file.id);
    if (!full.web_content_link) {
      toast.error(i18n.t('files.cannotDownload'));
      return;
    }
    if (!(await downloadFits(Number(full.size)))) return;
    clickDownload(full.web_content_link, full.name);
  } catch (err) {
    toast.error(errorMessage(err) || i18n.t('files.cannotDownload'));
  }
}
