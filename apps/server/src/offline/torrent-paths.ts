/**
 * Names from a torrent made safe for the drive: a torrent is written by strangers, so its paths may try `..`, absolute
 * paths, backslashes or control characters. Each segment keeps what it can of its name; what cannot be a name is
 * dropped or replaced, so the file lands inside its task's folder under a readable name.
 */
import { checkName, cleanName } from '@haul/shared';

function safeSegment(raw: string): string | null {
  const s = cleanName(raw, '');
  return s === '' || checkName(s).problem ? null : s;
}

/** The segments of a torrent path as drive names; `index` names a file whose every segment was unusable. */
export function safeTorrentPath(path: string, index: number): string[] {
  const parts = path
    .split(/[/]+/)
    .map(safeSegment)
    .filter((s): s is string => s !== null);
  return parts.length ? parts : [`file-${index + 1}`];
}
