// The toolbar and store icons, drawn here as PNGs so the repository holds no binary: Haul's accent square with a white
// arrow into a tray ("fetched into your drive"). Shapes are sampled 4×4 per pixel for smooth edges.
import { crc32, deflateSync } from 'node:zlib';

const ACCENT = [0x22, 0x60, 0xd9];

/** Whether a point (0..1 on both axes) is inside the rounded square. */
function inSquare(x, y) {
  const r = 0.22;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** Whether a point is on the white mark: a shaft, an arrow head and the tray under it. */
function inMark(x, y) {
  const shaft = Math.abs(x - 0.5) <= 0.07 && y >= 0.2 && y <= 0.5;
  const head = y >= 0.42 && y <= 0.64 && Math.abs(x - 0.5) <= (0.64 - y) * 1.1;
  const tray = y >= 0.72 && y <= 0.8 && x >= 0.24 && x <= 0.76;
  const sides = y >= 0.6 && y <= 0.8 && ((x >= 0.24 && x <= 0.32) || (x >= 0.68 && x <= 0.76));
  return shaft || head || tray || sides;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** The icon at `size` pixels as PNG bytes (RGBA). */
export function iconPng(size) {
  const S = 4;
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      let square = 0;
      let mark = 0;
      for (let sy = 0; sy < S; sy++)
        for (let sx = 0; sx < S; sx++) {
          const x = (px + (sx + 0.5) / S) / size;
          const y = (py + (sy + 0.5) / S) / size;
          if (inSquare(x, y)) {
            square++;
            if (inMark(x, y)) mark++;
          }
        }
      const a = square / (S * S);
      const w = square ? mark / square : 0;
      const o = 1 + px * 4;
      for (let c = 0; c < 3; c++) row[o + c] = Math.round(ACCENT[c] * (1 - w) + 255 * w);
      row[o + 3] = Math.round(a * 255);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
