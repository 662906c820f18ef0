/**
 * Writing a zip as a stream (compress-commons, the engine under archiver and zip-stream): one entry at a time, each
 * read from the blob store only when its turn comes, so memory stays flat whatever the size. Names are always flagged
 * UTF-8 and entries are Unix ones (so Debian's unzip keeps UTF-8 names); past 4 GB the library writes ZIP64 records.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import { ZipArchiveEntry, ZipArchiveOutputStream } from 'compress-commons';
import type { ZipItem } from './zip-entries.js';

const ZIP64_MAGIC = 0xffffffff;
const STORED = 0;

/** The parts of compress-commons 7.0.1 (pinned) behind `entry()` that NativeCrcZip replaces for stored entries. */
interface EntryInternals {
  getMethod(): number;
  setCrc(crc: number): void;
  setSize(n: number): void;
  setCompressedSize(n: number): void;
}
type EntryDone = (err: Error | null, entry: EntryInternals) => void;
interface OutputInternals {
  _smartStream(entry: EntryInternals, done: EntryDone): Transform;
  _afterAppend(entry: EntryInternals): void;
}

/** A stored entry's bytes passing through, with their CRC-32 and count. */
class StoredCrc extends Transform {
  crc = 0;
  bytes = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.crc = crc32(chunk, this.crc);
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

/**
 * compress-commons with zlib's native CRC-32 for stored entries: its own (the crc-32 package, plain JS) ran at
 * ~0.7 GB/s, ~40 % of the CPU of zipping stored files (bench/README.md, zip.bench.ts). Deflated entries keep the
 * library's path. The end of an entry does what the library's `_smartStream` does.
 */
class NativeCrcZip extends ZipArchiveOutputStream {
  _smartStream(entry: EntryInternals, done: EntryDone): Transform {
    const lib = ZipArchiveOutputStream.prototype as unknown as OutputInternals;
    if (entry.getMethod() !== STORED) return lib._smartStream.call(this, entry, done);
    const pass = new StoredCrc();
    let error: Error | null = null;
    pass.once('error', (err) => (error = err));
    pass.once('end', () => {
      entry.setCrc(pass.crc >>> 0);
      entry.setSize(pass.bytes);
      entry.setCompressedSize(pass.bytes);
      lib._afterAppend.call(this, entry);
      done(error, entry);
    });
    pass.pipe(this, { end: false });
    return pass;
  }
}

/** Text that deflate shrinks well; everything else (media, archives, documents that are zips already) is stored. */
const TEXT = /^(text\/|application\/(json|xml|javascript|x-javascript|x-sh|x-yaml|yaml|toml|sql|x-subrip|rtf|csv|ld\+json|xhtml\+xml)|image\/svg\+xml)/i;
/** Bigger text is stored: deflating gigabytes of logs would cost the server more than it saves the reader. */
const DEFLATE_MAX = 64 * 1024 * 1024;

export const deflates = (item: ZipItem) => !item.dir && item.size > 0 && item.size <= DEFLATE_MAX && TEXT.test(item.mime);

/**
 * The zip's size as the writer lays it out: per entry a local header, the bytes, a data descriptor (16 bytes, 24 past
 * 4 GiB) for streamed ones, and a central header (with a 28-byte ZIP64 field for a big entry or one past 4 GiB in);
 * then the end records (ZIP64 ones past 4 GiB or 65,535 entries). Exact when every entry is stored, so it is the
 * Content-Length; with deflated entries a bound (deflate adds at most a few bytes per 16 KiB block to what does not
 * shrink), for charging up front.
 */
export function zipSize(items: ZipItem[], forceZip64 = false): { bytes: number; exact: boolean } {
  let offset = 0;
  let central = 0;
  let exact = true;
  for (const item of items) {
    const name = Buffer.byteLength(item.path);
    const big = item.size > ZIP64_MAGIC;
    const deflated = deflates(item);
    if (deflated) exact = false;
    const data = deflated ? item.size + Math.ceil(item.size / 16384) * 5 + 64 : item.size;
    central += 46 + name + (big || offset > ZIP64_MAGIC ? 28 : 0);
    offset += 30 + name + data + (!item.dir && item.size > 0 ? (big ? 24 : 16) : 0);
  }
  const zip64 = forceZip64 || items.length > 0xffff || central > ZIP64_MAGIC || offset > ZIP64_MAGIC;
  return { bytes: offset + central + 22 + (zip64 ? 76 : 0), exact };
}

/** The zip of `items` as a stream; `open` reads a file's bytes when its entry is written. */
export function zipStream(items: ZipItem[], open: (item: ZipItem) => Readable, opts: { forceZip64?: boolean } = {}): Readable {
  const out = new NativeCrcZip({ forceZip64: !!opts.forceZip64, zlib: { level: 6 } });
  const write = (item: ZipItem) =>
    new Promise<void>((resolve, reject) => {
      const entry = new ZipArchiveEntry(item.path);
      // The library strips a leading "word:" from names (a drive letter to it); the name is already safe as it is.
      entry.name = item.path;
      entry.getGeneralPurposeBit().useUTF8ForNames(true);
      entry.setMethod(deflates(item) ? 8 : 0);
      entry.setTime(new Date(item.modified || 0), false);
      entry.setUnixMode(item.dir ? 0o755 : 0o644);
      const source = item.dir || item.size === 0 ? Buffer.alloc(0) : open(item);
      out.entry(entry, source, (err: Error | null) => (err ? reject(err) : resolve()));
    });
  void (async () => {
    for (const item of items) {
      if (out.destroyed) return;
      await write(item);
    }
    out.finish();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
