/**
 * Where an unpacking task's entries are written before they enter the blob store: one folder per task under the data
 * dir (the store's disk, so adopting a file is a rename). 7zz writes each entry straight into a file Haul opened
 * there (its standard output, not a pipe through Node), held to the entry's declared size by the kernel (prlimit's
 * RLIMIT_FSIZE); Haul then hashes the file and adopts it (fsync, rename). 7zz never creates a path of its own: an
 * archive's names cannot reach outside the folder, and links are never made. Folders of tasks that are not running
 * are removed at start-up, a task's own when it starts, fails or ends.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import { newId } from '../lib/ids.js';
import { createContentHasher } from '../storage/content-hash.js';
import { streamEntry, type ArchiveSource } from './archive-reader.js';
import { prlimitPath, SevenZipError, type Run, type RunOptions } from './seven-zip.js';

const READ_BYTES = 4 * 1024 * 1024;

/** The folder of every task's staging. */
export function stagingRoot(ctx: AppContext): string {
  return join(ctx.config.dataDir, 'archives', 'staging');
}

/** One task's staging folder (ids are Haul's own, never an archive's). */
export function stagingDir(ctx: AppContext, taskId: string): string {
  return join(stagingRoot(ctx), taskId);
}

/**
 * Removes the staging of tasks that are gone or ended (left by a crash). A pending or running task's is left alone:
 * it may be another process's on this data dir, and a task clears its own when it starts.
 */
export async function sweepStaging(ctx: AppContext): Promise<void> {
  let names: string[];
  try {
    names = await readdir(stagingRoot(ctx));
  } catch {
    return;
  }
  for (const name of names) {
    const row = await ctx.db.selectFrom('tasks').select('phase').where('id', '=', name).executeTakeFirst();
    if (!row || row.phase === PHASE.COMPLETE || row.phase === PHASE.ERROR) await rm(join(stagingRoot(ctx), name), { recursive: true, force: true });
  }
}

/** An entry being written into staging: its file, how far 7zz got, and how to stop it. */
export interface StagedRun {
  path: string;
  /** Bytes written so far (stat of the file when 7zz writes it directly). */
  written(): Promise<number>;
  kill(): void;
  /** Settles once 7zz has checked the bytes (CRC, password); rejects past the declared size with `too_large`. */
  done: Promise<void>;
}

/**
 * Starts writing one entry (or a batch's, one after the other) into a new file of `dir`, at most `size` bytes. Without
 * prlimit the bytes pass through Node instead, counted and cut off past `size` on the way.
 */
export async function stageEntry(dir: string, src: ArchiveSource, selector: string | string[], opts: Omit<RunOptions, 'input'>, rawName: boolean, size: number): Promise<StagedRun> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${newId()}.part`);
  const fh = await open(path, 'wx', 0o600);
  if (prlimitPath()) {
    let run: Run;
    try {
      run = streamEntry(src, selector, { ...opts, outFd: fh.fd, maxFileBytes: size }, rawName);
    } finally {
      // The child holds its own copy of the descriptor.
      await fh.close();
    }
    const written = () => stat(path).then((st) => st.size, () => 0);
    return { path, written, kill: run.kill, done: run.done };
  }
  await fh.close();
  const run = streamEntry(src, selector, opts, rawName);
  let got = 0;
  const cap = new Transform({
    transform: (chunk: Buffer, _enc, cb) => {
      got += chunk.length;
      if (got > size) return cb(new SevenZipError('An entry is larger than the archive says: unpacking stopped.', 'too_large'));
      cb(null, chunk);
    },
  });
  run.stdout.on('error', (err) => cap.destroy(err));
  const done = Promise.all([pipeline(run.stdout, cap, createWriteStream(path)), run.done]).then(
    () => undefined,
    (err: unknown) => {
      run.kill();
      throw err;
    },
  );
  done.catch(() => undefined);
  return { path, written: async () => got, kill: run.kill, done };
}

/** A staged file cut into one new file per entry, each of the size given and hashed on the way; the batch's file goes. */
export async function splitStaged(path: string, sizes: number[]): Promise<{ path: string; hash: string; size: number }[]> {
  const out: { path: string; hash: string; size: number }[] = [];
  const fh = await open(path, 'r');
  const buf = Buffer.allocUnsafe(READ_BYTES);
  let have = buf.subarray(0, 0);
  try {
    for (const size of sizes) {
      const piece = join(dirname(path), `${newId()}.part`);
      const to = await open(piece, 'wx', 0o600);
      const hasher = await createContentHasher();
      try {
        for (let left = size; left > 0; ) {
          if (have.length === 0) {
            const { bytesRead } = await fh.read(buf, 0, buf.length, null);
            if (bytesRead === 0) throw new Error('A staged batch is shorter than its entries.');
            have = buf.subarray(0, bytesRead);
          }
          const chunk = have.subarray(0, Math.min(left, have.length));
          hasher.update(chunk);
          for (let o = 0; o < chunk.length; ) o += (await to.write(chunk, o)).bytesWritten;
          have = have.subarray(chunk.length);
          left -= chunk.length;
        }
      } finally {
        await to.close();
      }
      out.push({ path: piece, hash: hasher.digest(), size });
    }
  } finally {
    await fh.close();
    await rm(path, { force: true });
  }
  return out;
}

/** The content hash and size of a staged file, read in large blocks. */
export async function hashStaged(path: string): Promise<{ hash: string; size: number }> {
  const hasher = await createContentHasher();
  const fh = await open(path, 'r');
  const buf = Buffer.allocUnsafe(READ_BYTES);
  let size = 0;
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hasher.update(buf.subarray(0, bytesRead));
      size += bytesRead;
    }
  } finally {
    await fh.close();
  }
  return { hash: hasher.digest(), size };
}
