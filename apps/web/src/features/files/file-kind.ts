/** A file's kind and icon from its fields alone: plain code, shared by the list and the first paint from index.html. */
import { FOLDER_KIND, categoryOf, mediaTypeOf } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import type { IconName } from '../../components/icon-paths';

export const isFolder = (f: Pick<DriveFile, 'kind'>) => f.kind === FOLDER_KIND;

export function iconFor(f: Pick<DriveFile, 'kind' | 'name' | 'mime_type'>): IconName {
  if (isFolder(f)) return 'folder';
  const media = mediaTypeOf(f.name, f.mime_type);
  if (media) return media;
  const cat = categoryOf(f.name, f.mime_type);
  return cat === 'zip' ? 'archive' : cat === 'bt' ? 'torrent' : 'file';
}
