/** A torrent's name, size and files as the API gives them (inspection and the URL checker). */
import type { TorrentInspection } from '@haul/shared';
import type { TorrentInfo } from './torrent-types.js';

export function presentTorrent(info: TorrentInfo): TorrentInspection {
  return {
    name: info.name,
    info_hash: info.infoHash,
    size: String(info.files.reduce((n, f) => n + f.size, 0)),
    files: info.files.map((f) => ({ index: f.index, path: f.path.join('/'), size: String(f.size) })),
  };
}
