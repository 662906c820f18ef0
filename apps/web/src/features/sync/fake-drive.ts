/** A test double of the listing call (seed 000 §7 "List files") for the sync engine's unit tests. */
import { PHASE } from '@haul/shared/plain';
import type { DriveFile, FileList } from '@haul/shared';
import type { ListParams } from '../files/files-api';

/** One row as the listing gives it, every field at the value most rows hold. */
export const listedFile = (over: Partial<DriveFile> = {}): DriveFile =>
  ({
    kind: 'drive#file',
    id: 'id1',
    parent_id: 'p1',
    name: 'a.jpg',
    user_id: 'u1',
    size: '10',
    mime_type: 'image/jpeg',
    file_extension: '.jpg',
    hash: 'h',
    icon_link: '',
    thumbnail_link: '',
    web_content_link: '',
    star: 0,
    tags: [],
    sensitive: 0,
    audit: null,
    params: {},
    folder_type: '',
    phase: PHASE.COMPLETE,
    trashed: false,
    created_time: '2026-01-01T00:00:00.000Z',
    modified_time: '2026-01-02T00:00:00.000Z',
    delete_time: '',
    ...over,
  }) as DriveFile;

/** A little server: files with change times, paged 500 at a time like the real one. */
export class FakeDrive {
  files = new Map<string, DriveFile & { changed: number }>();
  calls: ListParams[] = [];
  failures: Error[] = [];
  clock = 1_000_000;

  put(id: string, parent: string, extra: Partial<DriveFile> = {}) {
    this.clock += 10;
    this.files.set(id, {
      id,
      parent_id: parent,
      name: id,
      user_id: 'u1',
      kind: 'drive#file',
      star: 0,
      trashed: false,
      phase: PHASE.COMPLETE,
      params: {},
      changed: this.clock,
      ...extra,
    } as DriveFile & { changed: number });
  }

  list = async (p: ListParams): Promise<FileList> => {
    this.calls.push(p);
    const failure = this.failures.shift();
    if (failure) throw failure;
    const since = (p.filters?.modified_time as { gt?: string } | undefined)?.gt;
    let rows = [...this.files.values()];
    if (since) rows = rows.filter((f) => f.changed > Date.parse(since));
    else rows = rows.filter((f) => !f.trashed && (p.parentId === '*' || f.parent_id === p.parentId));
    if (p.filters?.system_tag) rows = rows.filter((f) => f.star === 1);
    rows.sort((a, b) => a.id.localeCompare(b.id));
    const start = p.pageToken ? Number(p.pageToken) : 0;
    const page = rows.slice(start, start + (p.limit ?? 100));
    const next = start + page.length < rows.length ? String(start + page.length) : '';
    return { kind: 'drive#fileList', files: page, next_page_token: next, sync_time: new Date(this.clock).toISOString() };
  };
}
