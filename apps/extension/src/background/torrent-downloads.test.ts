import { describe, expect, it } from 'vitest';
import { isTorrentDownload } from './torrent-downloads';

describe('isTorrentDownload', () => {
  it('knows a .torrent by its type, its link or its file name', () => {
    expect(isTorrentDownload({ mime: 'application/x-bittorrent', url: 'https://a.example/get?id=1', finalUrl: '', filename: '' })).toBe(true);
    expect(isTorrentDownload({ mime: '', url: 'https://a.example/Film.torrent', finalUrl: '', filename: '' })).toBe(true);
    expect(isTorrentDownload({ mime: 'application/octet-stream', url: 'https://a.example/get?id=1', finalUrl: '', filename: '/home/me/Film.torrent' })).toBe(true);
    expect(isTorrentDownload({ mime: 'application/zip', url: 'https://a.example/x.zip', finalUrl: 'https://b.example/x.zip', filename: '/home/me/x.zip' })).toBe(false);
  });
});
