/**
 * A bitmap subtitle track for tests: ffmpeg encodes DVD (VobSub) subtitles only from bitmaps, so a PGS stream (.sup,
 * which ffmpeg reads) is written by hand here, one white box shown from `from` to `to` seconds, and ffmpeg turns it
 * into a dvd_subtitle track.
 */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const u16 = (...n: number[]) => Buffer.concat(n.map((v) => Buffer.from([v >> 8, v & 0xff])));

export function pgsSup({ width, height, box, from, to }: { width: number; height: number; box: Box; from: number; to: number }): Buffer {
  const seg = (at: number, type: number, data: Buffer) => {
    const head = Buffer.alloc(13);
    head.write('PG', 0, 'latin1');
    head.writeUInt32BE(Math.round(at * 90000), 2);
    head.writeUInt8(type, 10);
    head.writeUInt16BE(data.length, 11);
    return Buffer.concat([head, data]);
  };
  // Presentation: an epoch start showing object 0 at the box, then a normal one showing nothing.
  const pcs = (show: boolean) =>
    Buffer.concat([u16(width, height), Buffer.from([0x10]), u16(show ? 0 : 1), Buffer.from([show ? 0x80 : 0, 0, 0, show ? 1 : 0]), show ? Buffer.concat([u16(0), Buffer.from([0, 0]), u16(box.x, box.y)]) : Buffer.alloc(0)]);
  const wds = Buffer.concat([Buffer.from([1, 0]), u16(box.x, box.y, box.w, box.h)]);
  const pds = Buffer.from([0, 0, 1, 235, 128, 128, 255]);
  // Each line: a run of box.w pixels of colour 1, then the end of the line.
  const line = Buffer.from([0, 0xc0 | (box.w >> 8), box.w & 0xff, 1, 0, 0]);
  const rle = Buffer.concat(Array.from({ length: box.h }, () => line));
  const len = rle.length + 4;
  const ods = Buffer.concat([u16(0), Buffer.from([0, 0xc0, len >> 16, (len >> 8) & 0xff, len & 0xff]), u16(box.w, box.h), rle]);
  return Buffer.concat([
    seg(from, 0x16, pcs(true)), seg(from, 0x17, wds), seg(from, 0x14, pds), seg(from, 0x15, ods), seg(from, 0x80, Buffer.alloc(0)),
    seg(to, 0x16, pcs(false)), seg(to, 0x17, wds), seg(to, 0x80, Buffer.alloc(0)),
  ]);
}
