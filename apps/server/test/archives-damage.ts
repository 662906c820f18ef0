/** Archives whose headers lie about an entry's size, made from real ones by patching the size fields in place. */

/** A tar (ustar or GNU) with `name`'s size field set to `size`, its header checksum recomputed so readers take it. */
export function lieInTar(tar: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(tar);
  for (let off = 0; off + 512 <= out.length; ) {
    const header = out.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const entry = header.subarray(0, 100).toString('latin1').replace(/\0.*$/s, '');
    const declared = parseInt(header.subarray(124, 136).toString('latin1').replace(/[\0 ]/g, '') || '0', 8);
    if (entry === name || entry === `./${name}`) {
      header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
      header.fill(0x20, 148, 156);
      const sum = header.reduce((n, b) => n + b, 0);
      header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
      return out;
    }
    off += 512 + Math.ceil(declared / 512) * 512;
  }
  throw new Error(`no entry ${name} in the tar`);
}

/** A zip with `name`'s uncompressed size set to `size` in its local header and in the central directory. */
export function lieInZip(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  let patched = 0;
  for (let off = 0; off + 46 <= out.length; off++) {
    const sig = out.readUInt32LE(off);
    // Local header: name at 30, size at 22; central directory header: name at 46, size at 24.
    const [nameAt, sizeAt] = sig === 0x04034b50 ? [30, 22] : sig === 0x02014b50 ? [46, 24] : [0, 0];
    if (!nameAt) continue;
    const len = out.readUInt16LE(off + (sig === 0x04034b50 ? 26 : 28));
    if (out.subarray(off + nameAt, off + nameAt + len).toString('latin1') !== name) continue;
    out.writeUInt32LE(size, off + sizeAt);
    patched++;
  }
  if (patched < 2) throw new Error(`no entry ${name} in the zip`);
  return out;
}
