/**
 * The content hash (BLAKE3, hex: what names blobs) of each chosen file of a torrent, computed in the BitTorrent thread
 * as its pieces are verified, so that the finished file goes into the blob store without being read again on the
 * server's event loop. Each file walks its own pieces in order; a piece that is not in yet holds that file's walk until
 * it is, and pieces already on disk (a resumed task) are read back from the store, so a restart hashes from the start.
 *
 * The bytes hashed are those of pieces whose SHA-1 matched, as WebTorrent put them into its store. When two files of
 * the torrent would land on the same path on disk (names that differ only by characters the store strips) the disk
 * holds something else than the torrent's bytes: no hashes then, and the server hashes the files from disk instead.
 */
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import filenameReservedRegex from 'filename-reserved-regex';

/** Native BLAKE3 where its binary loads (as the server's own hasher), else hash-wasm; both give the same digests. */
async function newHasher() {
  if (process.env.HAUL_BLAKE3 !== 'wasm') {
    try {
      const { Blake3Hasher } = createRequire(import.meta.url)('@napi-rs/blake-hash');
      const h = new Blake3Hasher();
      return { update: (b) => h.update(b), digest: () => h.digest('hex') };
    } catch {
      // No binary for this platform: the WebAssembly one below.
    }
  }
  const { createBLAKE3 } = await import('hash-wasm');
  const h = await createBLAKE3();
  h.init();
  return { update: (b) => h.update(b), digest: () => h.digest('hex') };
}

/** Whether every file of the torrent has a disk path of its own (fs-chunk-store's naming, as diskPathOf's). */
function distinctOnDisk(t) {
  const paths = t.files.map((f) => join('/', dirname(f.path), basename(f.path).replace(filenameReservedRegex(), '')));
  return new Set(paths).size === paths.length;
}

const getPiece = (t, index) =>
  new Promise((resolve, reject) => t.store.get(index, (err, buf) => (err ? reject(err) : resolve(buf))));

/**
 * Hashes `files` (WebTorrent files of `t`) as their pieces arrive; `kick()` after each verified piece, `result()`
 * once every file is done. Null from `result()` when the hashes cannot be trusted to match the disk. `onFile(i, hash)`
 * hears of each file (by its place in `files`) as soon as all its pieces are verified and hashed.
 */
export async function hashWhileDownloading(t, files, onFile = () => {}) {
  if (!distinctOnDisk(t)) return { kick: () => {}, result: async () => null };
  const walks = await Promise.all(files.map(async (f) => ({ f, next: f._startPiece, left: f.length, hasher: await newHasher(), digest: null })));
  let running = null;
  let again = false;
  let failed = null;

  async function pump() {
    do {
      again = false;
      for (const [i, w] of walks.entries()) {
        if (w.digest) continue;
        while (w.left > 0 && t.bitfield.get(w.next)) {
          const buf = await getPiece(t, w.next);
          const pieceStart = w.next * t.pieceLength;
          const from = Math.max(w.f.offset, pieceStart) - pieceStart;
          const to = Math.min(w.f.offset + w.f.length, pieceStart + buf.length) - pieceStart;
          w.hasher.update(buf.subarray(from, to));
          w.left -= to - from;
          w.next++;
        }
        if (w.left === 0) {
          w.digest = w.hasher.digest();
          onFile(i, w.digest);
        }
      }
    } while (again);
  }

  function kick() {
    if (failed) return;
    if (running) {
      again = true;
      return;
    }
    running = pump()
      .catch((err) => {
        failed = err;
      })
      .finally(() => {
        running = null;
        // A piece verified as the last walk ended.
        if (again) kick();
      });
  }

  kick();
  return {
    kick,
    /** The hex digests, in the order of `files`; throws when a piece could not be read back. */
    async result() {
      kick();
      while (running) await running;
      if (failed) throw failed;
      if (walks.some((w) => w.left > 0)) throw new Error('A piece of a finished file is missing.');
      return walks.map((w) => w.digest);
    },
  };
}
