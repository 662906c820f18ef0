/**
 * The drive every candidate stores: the same rows, made in the page from a fixed seed (so a reloaded page knows the
 * same ids without storing them anywhere). Three folders in the root: "Big" with `files` files, "Small" with 100 and
 * "Other" (empty, the moves' target). Rows have the shape the listing sends (apps/server/src/files/files.presenter.ts):
 * the 23 fields of the sync tests' row (apps/web/src/features/sync/fake-drive.ts) with a 20-character id, a content
 * hash, a signed thumbnail link on pictures and videos, ISO times.
 * The sync order is the server's (changed time, id): the folders first, then the files as they were uploaded, Small's
 * spread among Big's, so the pages mix folders as a real drive's do; ids are random, so id order is another order.
 */
import { listedFile } from '../../apps/web/src/features/sync/fake-drive';
import type { LocalFile } from './store-api';
import { seededRandom } from '../../apps/server/test/seeded-random';

export const USER = 'u_bench_local_store_1';
export const SMALL_FILES = 100;

const KINDS = [
  ['.jpg', 'image/jpeg', true],
  ['.mp4', 'video/mp4', true],
  ['.pdf', 'application/pdf', false],
  ['.txt', 'text/plain', false],
  ['.zip', 'application/zip', false],
  ['.mp3', 'audio/mpeg', false],
] as const;
const WORDS = ['holiday', 'scan', 'invoice', 'IMG', 'draft', 'report', 'Screenshot', 'notes', 'backup', 'track', 'clip', 'family'];

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export interface Drive {
  rows: LocalFile[];
  big: string;
  small: string;
  other: string;
  bigIds: string[];
  smallIds: string[];
}

/** The whole drive in sync order; `stamp` is the local_sync_timestamp of every row. */
export function makeDrive(files: number, stamp: number): Drive {
  const rnd = seededRandom(48);
  const id = () => {
    let s = '';
    for (let i = 0; i < 20; i++) s += ALPHABET[Math.floor(rnd() * 64)];
    return s;
  };
  const hex = (n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(rnd() * 16).toString(16);
    return s;
  };
  const t0 = Date.UTC(2024, 0, 1);
  const row = (rid: string, parent: string, name: string, folder: boolean, i: number): LocalFile => {
    const [ext, mime, thumb] = KINDS[i % KINDS.length]!;
    const created = new Date(t0 + i * 61_000).toISOString();
    const listed = listedFile({
      kind: folder ? 'drive#folder' : 'drive#file',
      id: rid,
      parent_id: parent,
      name,
      user_id: USER,
      size: folder ? '0' : String(Math.floor(rnd() * 50_000_000)),
      mime_type: folder ? '' : mime,
      file_extension: folder ? '' : ext,
      hash: folder ? '' : hex(40),
      thumbnail_link: !folder && thumb ? `https://drive.example.net/drive/v1/files/${rid}/thumbnail?size=SIZE_MEDIUM&expires=1767225600&sig=${hex(43)}` : '',
      folder_type: folder ? 'NORMAL' : '',
      created_time: created,
      modified_time: created,
    });
    return { ...listed, local_sync_timestamp: stamp };
  };
  const big = id();
  const small = id();
  const other = id();
  const rows = [row(big, '', 'Big', true, 0), row(small, '', 'Small', true, 1), row(other, '', 'Other', true, 2)];
  const bigIds: string[] = [];
  const smallIds: string[] = [];
  const every = Math.max(1, Math.floor(files / SMALL_FILES));
  for (let i = 0; i < files; i++) {
    const name = `${WORDS[i % WORDS.length]} ${String(i).padStart(6, '0')}${KINDS[i % KINDS.length]![0]}`;
    const r = row(id(), big, name, false, i + 3);
    bigIds.push(r.id);
    rows.push(r);
    if (i % every === every - 1 && smallIds.length < SMALL_FILES) {
      const s = row(id(), small, `small ${smallIds.length}${KINDS[i % KINDS.length]![0]}`, false, i + 3);
      smallIds.push(s.id);
      rows.push(s);
    }
  }
  return { rows, big, small, other, bigIds, smallIds };
}
