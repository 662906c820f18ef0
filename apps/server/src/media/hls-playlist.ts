/** Reading the media playlists ffmpeg writes and serving them with signed segment URIs. Pure functions. */

/** Names a rendition's files may have: the fMP4 init segment and numbered media segments. */
export const SEGMENT_NAME = /^(init\.mp4|\d{5,9}\.m4s)$/;

export interface ParsedPlaylist {
  /** Tags before the first segment (version, target duration, playlist type, …), the map excluded. */
  header: string[];
  /** URI of the init segment (EXT-X-MAP), '' when none. */
  map: string;
  segments: { extinf: string; uri: string }[];
  ended: boolean;
}

/**
 * Parses a media playlist, keeping only what is complete: a file still being written may end in a half line or an
 * EXTINF whose URI has not arrived yet, and those are left out. Entries naming anything but our segment files are
 * dropped.
 */
export function parsePlaylist(text: string): ParsedPlaylist {
  const lines = text.split('\n');
  // The last element is a complete line only when the text ended with a newline.
  if (!text.endsWith('\n')) lines.pop();
  const out: ParsedPlaylist = { header: [], map: '', segments: [], ended: false };
  let pendingInf = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('#EXT-X-MAP:')) {
      const uri = /URI="([^"]*)"/.exec(line)?.[1] ?? '';
      if (SEGMENT_NAME.test(uri)) out.map = uri;
    } else if (line.startsWith('#EXTINF:')) {
      pendingInf = line;
    } else if (line === '#EXT-X-ENDLIST') {
      out.ended = true;
    } else if (line.startsWith('#')) {
      if (out.segments.length === 0 && !pendingInf && /^#EXT(M3U|-X-(VERSION|TARGETDURATION|MEDIA-SEQUENCE|PLAYLIST-TYPE|INDEPENDENT-SEGMENTS))/.test(line)) {
        out.header.push(line);
      }
    } else {
      if (pendingInf && SEGMENT_NAME.test(line)) out.segments.push({ extinf: pendingInf, uri: line });
      pendingInf = '';
    }
  }
  return out;
}

/** Writes a playlist back with `query` appended to every segment URI (so players fetch them with the same signature). */
export function renderPlaylist(p: ParsedPlaylist, query: string): string {
  const lines = p.header.length ? [...p.header] : ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-TARGETDURATION:4'];
  if (!lines.some((l) => l.startsWith('#EXT-X-PLAYLIST-TYPE'))) lines.push(`#EXT-X-PLAYLIST-TYPE:${p.ended ? 'VOD' : 'EVENT'}`);
  if (p.map) lines.push(`#EXT-X-MAP:URI="${p.map}?${query}"`);
  for (const s of p.segments) lines.push(s.extinf, `${s.uri}?${query}`);
  if (p.ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** Every file a finished playlist names (init first), for moving them into the blob store. */
export function filesOf(p: ParsedPlaylist): string[] {
  return [...(p.map ? [p.map] : []), ...p.segments.map((s) => s.uri)];
}

const extinfSeconds = (extinf: string) => Number(/^#EXTINF:([\d.]+)/.exec(extinf)?.[1] ?? 0);

/**
 * The playlist of a limited viewer: the segments that start before `seconds`, ended there. A playlist that does not
 * reach that point yet (a rendition still being written) is left as it is.
 */
export function cutAt(p: ParsedPlaylist, seconds: number): ParsedPlaylist {
  let start = 0;
  const kept: ParsedPlaylist['segments'] = [];
  for (const s of p.segments) {
    if (start >= seconds) return { ...p, segments: kept, ended: true };
    kept.push(s);
    start += extinfSeconds(s.extinf);
  }
  return start >= seconds ? { ...p, segments: kept, ended: true } : p;
}

/** When a segment starts (seconds from the beginning), or -1 when the playlist does not name it. */
export function segmentStart(p: ParsedPlaylist, uri: string): number {
  let start = 0;
  for (const s of p.segments) {
    if (s.uri === uri) return start;
    start += extinfSeconds(s.extinf);
  }
  return -1;
}
