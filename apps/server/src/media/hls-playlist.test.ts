import { describe, expect, it } from 'vitest';
import { cutAt, filesOf, parsePlaylist, renderPlaylist, segmentStart } from './hls-playlist.js';

const head = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-MAP:URI="init.mp4"\n';

describe(parsePlaylist.name, () => {
  it('keeps only complete entries of a playlist still being written', () => {
    const p = parsePlaylist(`${head}#EXTINF:4.000000,\n00000.m4s\n#EXTINF:4.000000,\n00001.m4s\n#EXTINF:4.0`);
    expect(p.segments.map((s) => s.uri)).toEqual(['00000.m4s', '00001.m4s']);
    expect(p.ended).toBe(false);
    // An EXTINF whose URI has not arrived yet is left out too.
    expect(parsePlaylist(`${head}#EXTINF:4.000000,\n00000.m4s\n#EXTINF:4.000000,\n`).segments).toHaveLength(1);
    // A URI line cut short (no newline yet) is not a segment.
    expect(parsePlaylist(`${head}#EXTINF:4.000000,\n000`).segments).toHaveLength(0);
  });

  it('drops entries naming anything but our segment files', () => {
    const p = parsePlaylist(`#EXTM3U\n#EXT-X-MAP:URI="/etc/passwd"\n#EXTINF:4,\nhttp://example.com/x.ts\n#EXTINF:4,\n../00001.m4s\n#EXTINF:4,\n00002.m4s\n#EXT-X-ENDLIST\n`);
    expect(p.map).toBe('');
    expect(filesOf(p)).toEqual(['00002.m4s']);
  });
});

describe(renderPlaylist.name, () => {
  it('signs every URI and ends the playlist only when it is finished', () => {
    const done = renderPlaylist(parsePlaylist(`${head}#EXTINF:4.000000,\n00000.m4s\n#EXT-X-ENDLIST\n`), 'u=a&e=1&s=x');
    expect(done).toContain('#EXT-X-MAP:URI="init.mp4?u=a&e=1&s=x"');
    expect(done).toContain('\n00000.m4s?u=a&e=1&s=x\n');
    expect(done.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
    const growing = renderPlaylist(parsePlaylist(`${head}#EXTINF:4.000000,\n00000.m4s\n`), 'q=1');
    expect(growing).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(growing).not.toContain('ENDLIST');
  });
});

describe(cutAt.name, () => {
  const full = parsePlaylist(`${head}${[0, 1, 2, 3].map((i) => `#EXTINF:4.000000,\n0000${i}.m4s\n`).join('')}#EXT-X-ENDLIST\n`);

  it('keeps the segments that start before the point and ends the playlist there', () => {
    const p = cutAt(full, 5);
    expect(p.segments.map((s) => s.uri)).toEqual(['00000.m4s', '00001.m4s']);
    expect(p.ended).toBe(true);
    expect(cutAt(full, 8).segments).toHaveLength(2);
    expect(cutAt(full, 100)).toBe(full);
  });

  it('leaves a growing playlist that has not reached the point as it is', () => {
    const growing = parsePlaylist(`${head}#EXTINF:4.000000,\n00000.m4s\n`);
    expect(cutAt(growing, 10).ended).toBe(false);
    expect(cutAt(growing, 4).ended).toBe(true);
  });

  it('tells when a segment starts', () => {
    expect(segmentStart(full, '00002.m4s')).toBe(8);
    expect(segmentStart(full, '00009.m4s')).toBe(-1);
  });
});
