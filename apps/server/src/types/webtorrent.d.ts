/** The part of WebTorrent 3's API the BitTorrent engine uses (the package ships no types). */
declare module 'webtorrent' {
  import type { EventEmitter } from 'node:events';

  export interface TorrentFile extends EventEmitter {
    readonly name: string;
    /** Path inside the download folder, normalised by parse-torrent (never above it). */
    readonly path: string;
    readonly length: number;
    readonly downloaded: number;
    readonly done: boolean;
    select(): void;
    deselect(): void;
  }

  export interface Torrent extends EventEmitter {
    readonly infoHash: string;
    readonly name: string;
    readonly files: TorrentFile[];
    readonly downloadSpeed: number;
    readonly magnetURI: string;
    readonly torrentFile: Buffer;
  }

  export interface Instance extends EventEmitter {
    add(source: string | Buffer, opts: Record<string, unknown>, onTorrent?: (t: Torrent) => void): Torrent;
    seed(input: string | string[] | Buffer, opts: Record<string, unknown>, onSeed?: (t: Torrent) => void): Torrent;
    destroy(cb?: (err?: Error) => void): void;
  }

  interface WebTorrentConstructor {
    new (opts?: Record<string, unknown>): Instance;
  }
  const WebTorrent: WebTorrentConstructor;
  namespace WebTorrent {
    type Instance = import('webtorrent').Instance;
  }
  export default WebTorrent;
}

declare module 'parse-torrent' {
  export interface ParsedTorrent {
    infoHash: string;
    name?: string;
    files?: { path: string; name: string; length: number }[];
    length?: number;
  }
  export default function parseTorrent(source: string | Uint8Array): Promise<ParsedTorrent>;
}

declare module 'bencode' {
  const bencode: { encode(value: unknown): Uint8Array; decode(data: Uint8Array): unknown };
  export default bencode;
}

declare module 'bittorrent-tracker' {
  import type { Server as HttpServer } from 'node:http';
  export class Server {
    constructor(opts: { udp?: boolean; http?: boolean; ws?: boolean; stats?: boolean });
    http: HttpServer | null;
    listen(port: number, host: string, cb: () => void): void;
    close(cb: () => void): void;
  }
}

declare module 'filename-reserved-regex' {
  export default function filenameReservedRegex(): RegExp;
}
