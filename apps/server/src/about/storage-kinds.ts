/**
 * The account's used space by kind of file, for the storage page. One grouped query over the account's files (by
 * trash, extension and MIME type: a few hundred groups at most), then each group is named here, so no per-file work
 * leaves the database. Asked only when the storage page opens: on SQLite, 0.1-0.25 s for an account of 100,000 files
 * (the plain sum of GET about takes 0.04 s), so no running totals are kept.
 */
import { isArchive, isAudio, isImage, isVideo, STORAGE_KINDS, type StorageKind } from '@haul/shared';
import type { Db } from '../db/database.js';

/** Compressed tarballs and the like, beyond the archives Haul unpacks (zip, rar, 7z). */
const MORE_ARCHIVES = new Set(['tar', 'gz', 'tgz', 'bz2', 'tbz2', 'xz', 'txz', 'zst', 'lz', 'lzma', 'cab', 'iso']);
const DOCUMENTS = new Set([
  'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'txt', 'md', 'csv', 'tsv', 'epub',
  'mobi', 'azw3', 'djvu', 'pages', 'numbers', 'key', 'tex', 'log',
]);
const DOCUMENT_MIME = /^(text\/|application\/(pdf|rtf|msword|epub\+zip|vnd\.ms-|vnd\.openxmlformats-officedocument|vnd\.oasis\.opendocument))/;

/** The kind of a file with this extension (".mp4", '' for none) and MIME type. */
export function storageKindOf(extension: string, mime: string): StorageKind {
  const ext = extension.replace(/^\./, '').toLowerCase();
  const name = ext ? `f.${ext}` : 'f';
  if (isVideo(name, mime)) return 'video';
  if (isImage(name, mime)) return 'image';
  if (isAudio(name, mime)) return 'audio';
  if (isArchive(name) || MORE_ARCHIVES.has(ext)) return 'archive';
  if (DOCUMENTS.has(ext) || DOCUMENT_MIME.test(mime)) return 'document';
  return 'other';
}

interface Space {
  size: number;
  count: number;
}

export async function storageByKind(db: Db, userId: string) {
  const groups = await db
    .selectFrom('files')
    .select((eb) => ['trashed', 'file_extension', 'mime_type', eb.fn.sum<number>('size').as('size'), eb.fn.countAll<number>().as('count')])
    .where('user_id', '=', userId)
    .where('kind', '=', 'drive#file')
    .groupBy(['trashed', 'file_extension', 'mime_type'])
    .execute();
  const kinds = new Map<StorageKind, Space>(STORAGE_KINDS.map((k) => [k, { size: 0, count: 0 }]));
  const trash: Space = { size: 0, count: 0 };
  for (const g of groups) {
    const into = g.trashed ? trash : kinds.get(storageKindOf(g.file_extension, g.mime_type))!;
    into.size += Number(g.size);
    into.count += Number(g.count);
  }
  const text = (s: Space) => ({ size: String(s.size), count: s.count });
  const total = [...kinds.values()].reduce((n, s) => n + s.size, trash.size);
  return { kinds: STORAGE_KINDS.map((kind) => ({ kind, ...text(kinds.get(kind)!) })), trash: text(trash), total: String(total) };
}
