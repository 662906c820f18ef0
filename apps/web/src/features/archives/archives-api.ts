/** Cloud decompression on the server: list an archive, unpack it as a task, follow the task. */
import type { Answer } from '@haul/client';
import { haul } from '../../lib/api-client';

export type ArchiveListing = Answer<'listArchive'>;
export type ArchiveEntry = ArchiveListing['files'][number];
export type DecompressProgress = Answer<'decompressProgress'>;

/** The task type the transfer list shows beside cloud downloads. */
export const DECOMPRESS = 'decompress';

/** How names a zip stored without UTF-8 can be read, by the server's names; '' lets the server decide (CP437). */
export const NAME_ENCODINGS: [string, string][] = [
  ['shift_jis', 'Shift-JIS (日本語)'],
  ['gbk', 'GBK (简体中文)'],
  ['big5', 'Big5 (繁體中文)'],
  ['euc-kr', 'EUC-KR (한국어)'],
  ['cp866', 'CP866 (DOS кириллица)'],
  ['cp1251', 'Windows-1251 (кириллица)'],
  ['cp1252', 'Windows-1252 (Western)'],
  ['cp437', 'CP437 (DOS)'],
];

export const listArchive = (fileId: string, password: string, encoding: string) =>
  haul.call('listArchive', { body: { file_id: fileId, ...(password ? { password } : {}), ...(encoding ? { encoding } : {}) } });

/** `parentId` undefined: a new folder named after the archive, beside it. */
export const startDecompress = (fileId: string, password: string, encoding: string, paths: string[] | undefined, parentId?: string) =>
  haul.call('decompress', {
    body: {
      file_id: fileId,
      ...(password ? { password } : {}),
      ...(encoding ? { encoding } : {}),
      ...(paths ? { paths } : {}),
      ...(parentId !== undefined ? { parent_id: parentId } : {}),
    },
  });

export const decompressProgress = (taskId: string, signal?: AbortSignal) => haul.call('decompressProgress', { query: { task_id: taskId }, signal });
