/**
 * Lists an archive and streams one entry out of it, straight from the stored blob's path (the archive is not copied).
 * A compressed tar is two runs piped together: the stream decompressed by one 7zz, the tar read by another.
 */
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCompressedTar } from '@haul/shared';
import { parseListing, type RawListing } from './archive-listing.js';
import { listFileLine } from './entry-names.js';
import { reclassify, run7z, SevenZipError, type Run, type RunOptions } from './seven-zip.js';

export interface ArchiveSource {
  /** The archive's bytes on disk. */
  path: string;
  /** Its name in the drive (a compressed tar is recognised by it). */
  name: string;
}

type Opts = Omit<RunOptions, 'input'>;

/** The tar inside a compressed tar, as a stream; `null` for any other archive. */
function innerTar(src: ArchiveSource, opts: Opts): Run | null {
  if (!isCompressedTar(src.name)) return null;
  // Its output is the pipe into the tar reader, never the caller's file.
  return run7z(['x', '-so', src.path], { ...opts, password: '', outFd: undefined, maxFileBytes: undefined });
}

/** Every entry of the archive, up to `maxEntries` (TooManyEntries past it); names not in UTF-8 read as `encoding`. */
export async function listArchive(src: ArchiveSource, opts: Opts, maxEntries: number, encoding = ''): Promise<RawListing> {
  const outer = innerTar(src, opts);
  const run = outer ? run7z(['l', '-slt', '-si', '-ttar'], { ...opts, input: outer.stdout }) : run7z(['l', '-slt', src.path], opts);
  try {
    const listing = await parseListing(run.stdout, maxEntries, encoding);
    // A damaged archive is told apart from a failure of 7zz's own by the errors it printed with the listing.
    const reader = run.done.catch((err: unknown) => Promise.reject(err instanceof SevenZipError ? reclassify(err, listing.errors.join('\n')) : err));
    await (outer ? bothRuns(reader, outer.done, false) : reader);
    if (outer) listing.physicalSize = 0;
    return listing;
  } catch (err) {
    run.kill();
    outer?.kill();
    throw err;
  }
}

/**
 * How the two runs of a compressed tar ended, as one. A damaged stream (a cut gzip) makes the tar reader fail without
 * saying why, so the stream's own failure is the one reported; `early`: the stream may be cut off once the reader has
 * what it asked for, which is no failure.
 */
async function bothRuns(reader: Promise<void>, stream: Promise<void>, early: boolean): Promise<void> {
  const named = (err: unknown) => err instanceof SevenZipError && err.kind !== 'failed';
  const [r, s] = await Promise.allSettled([reader, stream]);
  if (s.status === 'rejected' && (named(s.reason) || (r.status === 'fulfilled' && !early))) throw s.reason;
  if (r.status === 'rejected') throw r.reason;
}

/**
 * One entry's bytes on standard output; `done` settles when 7zz has checked them (CRC, password). `selector` is the
 * entry's path; with `rawName` its stored bytes in hex (a name that is not UTF-8), written to a list file for 7zz,
 * since Node hands arguments over as UTF-8; with `opts.wildcards` a pattern (tasks created before list files). With
 * `opts.outFd` the bytes go straight into that file (`stdout` is then unusable). Several selectors (a batch) go in a
 * list file too, and 7zz writes their entries one after the other in the archive's order.
 */
export function streamEntry(src: ArchiveSource, selector: string | string[], opts: Opts, rawName = false): Run {
  const selectors = typeof selector === 'string' ? [selector] : selector;
  if (!rawName && selectors.length === 1) return startEntry(src, ['--', selectors[0]!], opts);
  const list = join(tmpdir(), `haul-7z-${randomUUID()}.lst`);
  const names = selectors.map((s) => listFileLine(rawName ? Buffer.from(s, 'hex') : Buffer.from(s, 'utf8')));
  writeFileSync(list, Buffer.concat(names), { mode: 0o600, flag: 'wx' });
  // `--` would make 7zz read `@…` as a name; nothing here comes from the archive (both paths are Haul's own).
  let run: Run;
  try {
    run = startEntry(src, [`@${list}`], { ...opts, wildcards: false, listFile: true, listUtf8: !rawName });
  } catch (err) {
    rmSync(list, { force: true });
    throw err;
  }
  const drop = () => rmSync(list, { force: true });
  run.done.then(drop, drop);
  return run;
}

function startEntry(src: ArchiveSource, operands: string[], opts: Opts): Run {
  const outer = innerTar(src, opts);
  const run = outer ? run7z(['e', '-so', '-si', '-ttar', ...operands], { ...opts, input: outer.stdout }) : run7z(['e', '-so', src.path, ...operands], opts);
  if (!outer) return run;
  // The outer run may end early (the inner one stops reading once its entry is out): only its real failures count.
  const done = bothRuns(run.done, outer.done, true);
  done.catch(() => undefined);
  return {
    stdout: run.stdout,
    done,
    kill: () => {
      run.kill();
      outer.kill();
    },
  };
}
