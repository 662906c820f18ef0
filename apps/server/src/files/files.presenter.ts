/** Turns file rows into the wire shape; storage details (trash group, change clock) stay inside. */
import { FOLDER_TYPE_NORMAL, STAR_TAG, platformIcon, type Breadcrumb, type DriveFile, type FileKind, type Phase } from '@haul/shared';
import type { FileRow } from '../db/schema.js';
import { toRfc3339 } from '../lib/time.js';

export interface PresentOptions {
  /** Trash retention, to say when a trashed item will be purged (`delete_time`). */
  retentionMs: number;
  webContentLink?: string;
  /** Signed thumbnail link of a row ('' for none); signing only, so listings stay cheap. */
  thumbnailLink?: (row: FileRow) => string;
}

export function parseParams(json: string): Record<string, string> {
  try {
    const v = JSON.parse(json);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** Adds the tag icon (`platform_icon`, seed 000 §3) of a recorded platform: derived here, so nothing is stored twice. */
function withPlatformIcon(params: Record<string, string>): Record<string, string> {
  return typeof params.platform === 'string' && params.platform ? { ...params, platform_icon: platformIcon(params.platform) } : params;
}

export function presentFile(row: FileRow, opts: PresentOptions): DriveFile {
  return {
    kind: row.kind as FileKind,
    id: row.id,
    parent_id: row.parent_id,
    name: row.name,
    user_id: row.user_id,
    size: String(row.size),
    mime_type: row.mime_type,
    file_extension: row.file_extension,
    hash: row.hash,
    icon_link: '',
    thumbnail_link: opts.thumbnailLink?.(row) ?? '',
    web_content_link: opts.webContentLink ?? '',
    star: row.star ? 1 : 0,
    tags: row.star ? [{ id: 'STAR', name: STAR_TAG.name, type: STAR_TAG.type, time: toRfc3339(row.star_time) }] : [],
    sensitive: row.sensitive ? 1 : 0,
    audit: row.sensitive ? { status: 'STATUS_SENSITIVE_RESOURCE', message: 'sensitive resource', title: '' } : null,
    params: withPlatformIcon(parseParams(row.params)),
    folder_type: FOLDER_TYPE_NORMAL,
    phase: row.phase as Phase,
    trashed: row.trashed === 1,
    created_time: toRfc3339(row.created_time),
    modified_time: toRfc3339(row.modified_time),
    // When the item will be purged from the trash; '' while it is not trashed.
    delete_time: row.trashed_at !== null ? toRfc3339(row.trashed_at + opts.retentionMs) : '',
  };
}

/** A permanently deleted item, as incremental sync reports it so clients can drop it. */
export function presentTombstone(t: { file_id: string; user_id: string; parent_id: string; kind: string; deleted_time: number }): DriveFile {
  return {
    kind: t.kind as FileKind,
    id: t.file_id,
    parent_id: t.parent_id,
    name: '',
    user_id: t.user_id,
    size: '0',
    mime_type: '',
    file_extension: '',
    hash: '',
    icon_link: '',
    thumbnail_link: '',
    web_content_link: '',
    star: 0,
    tags: [],
    sensitive: 0,
    audit: null,
    params: { deleted: 'true' },
    folder_type: FOLDER_TYPE_NORMAL,
    phase: 'PHASE_TYPE_COMPLETE',
    trashed: true,
    created_time: '',
    modified_time: toRfc3339(t.deleted_time),
    delete_time: toRfc3339(t.deleted_time),
  };
}

export function presentBreadcrumb(row: Pick<FileRow, 'id' | 'name' | 'parent_id'>): Breadcrumb {
  return { id: row.id, name: row.name, parent_id: row.parent_id };
}
