/** A picked folder's tree is created on the server before its files are queued into it. */
import i18n from 'i18next';
import { toast } from 'sonner';
import { createFolder } from '../files/file-mutations';
import type { DropContents } from './drop-snapshot';
import { addUploads, type Picked } from './upload-manager';

/** Folder path inside the picked tree → id of the folder created for it (the seeds' createdFolderHistoryMap). */
const created = new Map<string, string>();

async function folderFor(parentId: string, path: string): Promise<string | null> {
  if (!path) return parentId;
  const key = `${parentId}/${path}`;
  const known = created.get(key);
  if (known) return known;
  const cut = path.lastIndexOf('/');
  const above = await folderFor(parentId, cut < 0 ? '' : path.slice(0, cut));
  if (above === null) return null;
  const wanted = path.slice(cut + 1);
  const folder = await createFolder(above, wanted);
  if (!folder) return null;
  // The name was taken, so the folder got a suffix (seed 000): say which folder the files went into.
  if (folder.name !== wanted) toast.info(i18n.t('uploads.folderRenamed', { name: wanted, newName: folder.name }), { duration: 10_000 });
  created.set(key, folder.id);
  return folder.id;
}

/** Queues picked files; files inside folders go into copies of those folders under `parentId`. */
export async function uploadPicked(userId: string, picked: Picked[], parentId: string): Promise<void> {
  const byFolder = new Map<string, Picked[]>();
  for (const p of picked) byFolder.set(p.relativePath, [...(byFolder.get(p.relativePath) ?? []), p]);
  // One pick is one tree: a second pick of a same-named folder makes a new folder.
  created.clear();
  for (const [path, group] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    const target = await folderFor(parentId, path);
    if (target !== null) await addUploads(userId, group, target, { newFolder: path !== '' });
  }
}

/** The folder part of a file's path in a picked folder ("Photos/2026/a.jpg" → "Photos/2026"). */
export function folderOf(webkitRelativePath: string): string {
  const cut = webkitRelativePath.lastIndexOf('/');
  return cut < 0 ? '' : webkitRelativePath.slice(0, cut);
}

/** Files and folders dropped from the desktop, walked through the entries API. */
export async function droppedFiles({ entries, files }: DropContents): Promise<Picked[]> {
  if (entries.length === 0) return files.map((file) => ({ file, relativePath: '' }));
  const out: Picked[] = [];
  const walk = async (entry: FileSystemEntry, dir: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
      out.push({ file, relativePath: dir });
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    // readEntries answers in batches until it returns none.
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, path);
    }
  };
  for (const e of entries) await walk(e, '');
  return out;
}
