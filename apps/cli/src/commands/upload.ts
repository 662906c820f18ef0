/**
 * haul upload PATH… [--to FOLDER] [--on-conflict skip|rename|overwrite]: files and folder trees (four files at a
 * time), resumable, instant when the content is stored already. Run again after a break, it skips what arrived (same name and path, same
 * BLAKE3 hash as the server's), continues what is partial (the tus upload the server kept) and sends the rest. A
 * name taken by other content follows --on-conflict.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DriveFile } from '@haul/shared';
import { FOLDER_KIND, formatSize, withOldSuffix, withSuffix } from '@haul/shared/plain';
import type { Ctx } from '../context.js';
import { isFolder, listAll, makeFolders, segments } from '../drive-paths.js';
import { CliError, EXIT, messageOf } from '../output.js';
import { eachLimited, TRANSFERS } from '../transfer/pool.js';
import { makeProgress, makeRunProgress } from '../transfer/progress.js';
import { localHash, uploadFile, type Phase } from '../transfer/upload.js';

export const ON_CONFLICT = ['skip', 'rename', 'overwrite'] as const;
export type OnConflict = (typeof ON_CONFLICT)[number];

interface Job {
  local: string;
  /** Folder names below the destination ("Photos/2026"). */
  dir: string[];
  name: string;
}

/** A drive folder the upload puts things in, with its items by name once they were needed (listed once, shared). */
interface Place {
  id: string;
  children?: Promise<Map<string, DriveFile>>;
}

/** What happened to one local file; --json prints the list. */
type Outcome =
  | { path: string; status: 'uploaded'; file: DriveFile; instant: boolean; sent: string; replaced?: string }
  | { path: string; status: 'already_there'; file: DriveFile }
  | { path: string; status: 'skipped'; reason: string; existing: string }
  | { path: string; status: 'failed'; error: string };

/** The server keeps names NFC (macOS writes NFD): compared as written, a rerun would not find its own files. */
const nfc = (s: string) => s.normalize('NFC');

/**
 * The items this file may be on the server as: the one of its name and, with --on-conflict rename, the "name (1)",
 * "name (2)"… the server gave earlier runs (up to the first free one, as the server counts; older servers wrote
 * "name(1)"), so a rerun finds them too.
 */
function namesakes(kids: Map<string, DriveFile>, name: string, rule: OnConflict): DriveFile[] {
  const found: DriveFile[] = [];
  for (let i = 0; ; i++) {
    const f = i ? (kids.get(withSuffix(name, String(i))) ?? kids.get(withOldSuffix(name, String(i)))) : kids.get(name);
    if (!f) return found;
    found.push(f);
    if (rule !== 'rename') return found;
  }
}

/** The files under each path, with the folders they sit in; a folder brings its own name along, as cp -r does. */
function collect(paths: string[]): Job[] {
  const jobs: Job[] = [];
  const walk = (local: string, dir: string[]) => {
    const st = statSync(local);
    if (st.isDirectory()) {
      const inside = [...dir, nfc(basename(local))];
      const entries = readdirSync(local).sort();
      if (entries.length === 0) jobs.push({ local, dir: inside, name: '' });
      for (const e of entries) walk(join(local, e), inside);
    } else if (st.isFile()) jobs.push({ local, dir, name: nfc(basename(local)) });
  };
  for (const p of paths) {
    try {
      walk(p.replace(/\/+$/, '') || '/', []);
    } catch (err) {
      throw new CliError(`Cannot read ${p}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (err as Error).message}.`, EXIT.NOT_FOUND);
    }
  }
  return jobs;
}

export async function upload(ctx: Ctx, paths: string[], opts: { to?: string; onConflict?: string }): Promise<void> {
  const rule = (opts.onConflict ?? 'skip') as OnConflict;
  if (!ON_CONFLICT.includes(rule)) throw new CliError(`--on-conflict takes ${ON_CONFLICT.join(', ')}.`, EXIT.USAGE);
  const jobs = collect(paths);
  const to = opts.to ?? '/';
  // A missing destination is made, as mkdir -p (and rclone, aws s3) do, and said so.
  const { folder: dest, made } = await makeFolders(ctx.client, to);
  for (const path of made) ctx.out.note(`Made the folder ${path} (it did not exist).`);
  const inDrive = (key: string) => (to.startsWith('/') ? `/${[...segments(to), key].join('/')}` : `${to}/${key}`);

  // Files go up several at a time: a folder is looked up or made once, its listing read once, whoever asks first.
  const places = new Map<string, Promise<Place>>([['', Promise.resolve(made.length ? { id: dest.id, children: Promise.resolve(new Map()) } : { id: dest.id })]]);
  /** The items of a folder by name, listed once (a page of 500 a call) rather than asked about file by file. */
  const childrenOf = (place: Place) =>
    // Kept only when whole: a listing cut short would hide namesakes, and their files would be sent again.
    (place.children ??= (async () => {
      const children = new Map<string, DriveFile>();
      for await (const f of listAll(ctx.client, place.id)) children.set(f.name, f);
      return children;
    })());
  const placeOf = (dir: string[]): Promise<Place> => {
    const key = dir.join('/');
    let known = places.get(key);
    if (!known) {
      known = (async () => {
        const parent = await placeOf(dir.slice(0, -1));
        const name = dir[dir.length - 1]!;
        const kids = await childrenOf(parent);
        const there = kids.get(name);
        if (there && !isFolder(there)) throw new CliError(`${inDrive(key)} is a file in the drive, not a folder.`, EXIT.CONFLICT);
        if (there) return { id: there.id };
        const folder = (await ctx.client.call('createFile', { body: { kind: FOLDER_KIND, parent_id: parent.id, name } })).file!;
        kids.set(name, folder);
        return { id: folder.id, children: Promise.resolve(new Map<string, DriveFile>()) };
      })();
      places.set(key, known);
    }
    return known;
  };

  const files = jobs.filter((j) => j.name);
  const meter = meterFor(!ctx.out.json, files.map((j) => statSync(j.local).size));
  const note = (text: string) => {
    meter.clear();
    ctx.out.note(text);
  };
  const results: (Outcome | undefined)[] = [];
  const count = { uploaded: 0, already_there: 0, skipped: 0, failed: 0 };
  let lastError: unknown;
  await eachLimited(jobs, TRANSFERS, async (job, i) => {
    try {
      const place = await placeOf(job.dir);
      if (!job.name) return; // an empty folder: made above
      const shown = [...job.dir, job.name].join('/');
      const kids = await childrenOf(place);
      const same = namesakes(kids, job.name, rule);
      const there = same[0];
      let hash: string | undefined;
      const size = statSync(job.local).size;
      const track = meter.file(shown, size);
      // Same name, same size: the content decides, by the hash the server keeps (other sizes differ without reading).
      const candidates = same.filter((f) => !isFolder(f) && f.hash && Number(f.size) === size);
      if (candidates.length) {
        hash = await localHash(job.local, (done) => track('hashing', done, size));
        const match = candidates.find((f) => f.hash === hash);
        if (match) {
          track('done', size, size);
          count.already_there++;
          results[i] = { path: job.local, status: 'already_there', file: match };
          note(`Already there: ${job.local} → ${[...job.dir, match.name].join('/')}`);
          return;
        }
      }
      if (there && rule === 'skip') {
        track('done', size, size);
        const reason = isFolder(there) ? 'a folder of that name is there' : 'a file of that name with other content is there';
        count.skipped++;
        results[i] = { path: job.local, status: 'skipped', reason, existing: there.id };
        note(`Skipped: ${job.local}: ${reason} (${shown}). Use --on-conflict rename to keep both, or --on-conflict overwrite to replace it.`);
        return;
      }
      if (there && rule === 'overwrite' && isFolder(there)) throw new CliError(`${shown} is a folder in the drive; a file does not replace a folder.`, EXIT.CONFLICT);
      const replace = !!there && rule === 'overwrite';
      const done = await uploadFile(ctx.client, job.local, place.id, job.name, { hash, replace, onProgress: track });
      track('done', size, size);
      kids.set(done.file.name, done.file);
      count.uploaded++;
      results[i] = { path: job.local, status: 'uploaded', file: done.file, instant: done.instant, sent: String(done.sent), ...(replace ? { replaced: there!.id } : {}) };
      const placedAs = [...job.dir, done.file.name].join('/');
      const how = replace ? ', the old one is in the trash' : placedAs !== shown ? ', the name was taken' : done.instant ? ', already on the server' : '';
      note(`${done.instant ? 'Stored at once' : 'Uploaded'}: ${job.local} → ${placedAs} (${formatSize(done.file.size)}${how})`);
    } catch (err) {
      meter.clear();
      count.failed++;
      lastError = err;
      results[i] = { path: job.local, status: 'failed', error: messageOf(err) };
      process.stderr.write(`Failed: ${job.local}: ${messageOf(err)}\n`);
    }
  });
  meter.stop();
  // One file asked for and it failed: its own error and exit code, as any single command.
  if (jobs.length === 1 && count.failed === 1) throw lastError;
  const listed = results.filter((r) => r !== undefined);
  ctx.out.result(listed, () => `${count.uploaded} uploaded, ${count.already_there} already there, ${count.skipped} skipped, ${count.failed} failed.`);
  if (count.failed) throw new CliError(`${count.failed} of ${files.length} files failed.`, count.failed === files.length ? EXIT.ERROR : EXIT.PARTIAL);
}

/** Reports a file's progress: its phase ('done' when it ends), and bytes done of its size. */
type Track = (phase: Phase | 'done', done: number, total: number) => void;

/**
 * One file: its own bar, saying whether it is checking (hashing) or sending. Several: one bar for the run, where a
 * file counts as its bytes sent (a file found there, or stored at once, counts whole when it ends).
 */
function meterFor(enabled: boolean, sizes: number[]): { file(shown: string, size: number): Track; clear(): void; stop(): void } {
  if (sizes.length <= 1) {
    const bar = makeProgress(enabled);
    return {
      file(shown) {
        let phase = '';
        return (p, done, total) => {
          if (p === 'done') return bar.stop();
          if (p !== phase) bar.start(`${p === 'hashing' ? 'checking' : 'sending'} ${shown}`, total);
          phase = p;
          bar.update(done);
        };
      },
      clear: () => bar.clear(),
      stop: () => bar.stop(),
    };
  }
  const run = makeRunProgress(enabled, sizes.length, sizes.reduce((a, b) => a + b, 0));
  return {
    file() {
      let counted = 0;
      return (p, done) => {
        if (p === 'hashing') return;
        run.add(done - counted);
        counted = done;
        if (p === 'done') run.fileDone();
      };
    },
    clear: () => run.clear(),
    stop: () => run.stop(),
  };
}
