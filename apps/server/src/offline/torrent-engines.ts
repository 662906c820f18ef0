/** The BitTorrent engine the configuration asks for: the built-in one, or a qBittorrent daemon. */
import { join } from 'node:path';
import type { Config } from '../config.js';
import { QbittorrentEngine } from './qbittorrent-engine.js';
import { BuiltinTorrentEngine } from './torrent-engine.js';
import type { TorrentEngine } from './torrent-types.js';

/** Builds the engine named by `HAUL_TORRENT_ENGINE`. */
export function createTorrentEngine(config: Config): TorrentEngine {
  if (config.torrentEngine === 'qbittorrent') {
    const localRoot = join(config.dataDir, 'offline');
    return new QbittorrentEngine({
      url: config.torrentDaemonUrl,
      username: config.torrentDaemonUser,
      password: config.torrentDaemonPassword,
      localRoot,
      daemonRoot: config.torrentDaemonDir ?? localRoot,
      allowPrivateNetwork: config.allowPrivateNetwork,
      timeoutMs: config.networkTimeoutSeconds * 1000,
    });
  }
  return new BuiltinTorrentEngine({ dht: config.torrentDht, allowPrivateNetwork: config.allowPrivateNetwork });
}
