import { describe, expect, it } from 'vitest';
import { chosenFileIds, inspectable, previewLines } from './preview';
import { isMagnet, isTorrentLink } from './links';

const listing = {
  name: 'Album',
  info_hash: 'ab',
  size: '3',
  files: [0, 1, 2].map((index) => ({ index, path: `Album/${index}`, size: '1' })),
};

describe('preview', () => {
  it('shows each pasted link with its kind, and checks only a box holding one link', () => {
    const { lines, bad } = previewLines('https://a.example/x.iso\nmagnet:?xt=urn:btih:abc\nhttps://a.example/t/Film%20(1).torrent?k=1\nhello');
    expect(lines.map((l) => l.kind)).toEqual(['http', 'magnet', 'torrent-link']);
    expect(bad).toEqual(['hello']);
    expect(inspectable(lines)).toBeNull();
    expect(inspectable(previewLines('magnet:?xt=urn:btih:abc').lines)?.kind).toBe('magnet');
    expect(inspectable(previewLines('https://a.example/x.iso').lines)?.kind).toBe('http');
  });

  it('sends file_ids only when some files were left out', () => {
    expect(chosenFileIds(listing, new Set([0, 1, 2]))).toBeUndefined();
    expect(chosenFileIds(listing, new Set([2, 0]))).toEqual([0, 2]);
  });

  it('tells magnet and .torrent links', () => {
    expect(isMagnet(' magnet:?xt=urn:btih:abc ')).toBe(true);
    expect(isMagnet('magnet:')).toBe(false);
    expect(isTorrentLink('https://a.example/dl/x.TORRENT')).toBe(true);
    expect(isTorrentLink('https://a.example/x.torrent.html')).toBe(false);
    expect(isTorrentLink('ftp://a.example/x.torrent')).toBe(false);
  });
});
