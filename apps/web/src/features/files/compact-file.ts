/**
 * The in-memory form of a listed row. A folder of 100,000 rows read from IndexedDB arrives as 100,000 objects that
 * each carry their own copy of every string (the owner, the parent, the kind, the type…) and their own empty `tags`
 * and `params`: some twenty heap objects a row. Every major garbage collection walks all of them, and its pause
 * showed as dropped frames while scrolling such a folder. Compacted rows share the strings that repeat and one frozen
 * empty list and map, all with one shape: about six objects a row.
 */
import type { DriveFile } from '@haul/shared';
import { NO_PARAMS, NO_TAGS } from '../sync/stored-row';

/** One instance per distinct value of the fields that take few values across a drive. */
export class StringPool {
  private readonly pool = new Map<string, string>();
  get(s: string): string {
    const known = this.pool.get(s);
    if (known !== undefined) return known;
    this.pool.set(s, s);
    return s;
  }
}

const isEmpty = (o: object | null | undefined) => !o || Object.keys(o).length === 0;

/** A copy of the row with the listing's fields only (extra local fields such as the sync stamp are dropped). */
export function compactFile(f: DriveFile, pool: StringPool): DriveFile {
  // A literal with every field in one order: all rows share one hidden class with in-object fields.
  return {
    kind: pool.get(f.kind) as DriveFile['kind'],
    id: f.id,
    parent_id: pool.get(f.parent_id),
    name: f.name,
    user_id: pool.get(f.user_id),
    size: f.size,
    mime_type: pool.get(f.mime_type),
    file_extension: pool.get(f.file_extension),
    hash: f.hash,
    icon_link: pool.get(f.icon_link),
    thumbnail_link: f.thumbnail_link,
    web_content_link: f.web_content_link,
    star: f.star,
    tags: f.tags?.length ? f.tags : NO_TAGS,
    sensitive: f.sensitive,
    audit: f.audit,
    params: isEmpty(f.params) ? NO_PARAMS : f.params,
    folder_type: pool.get(f.folder_type),
    phase: pool.get(f.phase) as DriveFile['phase'],
    trashed: f.trashed,
    created_time: f.created_time,
    // Most rows were never changed after they were made: one string for both times.
    modified_time: f.modified_time === f.created_time ? f.created_time : f.modified_time,
    delete_time: pool.get(f.delete_time),
    medias: f.medias,
  };
}
