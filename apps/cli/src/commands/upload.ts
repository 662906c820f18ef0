/**
 * haul upload PATH… [--to FOLDER] [--on-conflict skip|rename|overwrite]: files and folder trees, resumable, instant
 * when the content is stored already. Run again after a break, it skips what arrived (same name and path, same
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
import { makeProgress } from '../transfer/progress.js';
import { localHash, uploadFile } from '../transfer/upload.js';

export const ON_CONFLICT = ['skip', 'rename', 'overwrite'] as const;
export type OnConflict = (typeof ON_CONFLICT)[number];

interface Job {
  local: string;
  /** Folder names below the destination ("Photos/2026"). */
  dir: string[];
  name: string;
}

/** A drive folder the upload puts things in, with its items by name once they were needed. */
interface Place {
  id: string;
  children?: Map<string, DriveFile>;
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

  const places = new Map<string, Place>([['', made.length ? { id: dest.id, children: new Map() } : { id: dest.id }]]);
  /** The items of a folder by name, listed once (a page of 500 a call) rather than asked about file by file. */
  const childrenOf = async (place: Place) => {
    if (!place.children) {
      // Kept only when whole: a listing cut short would hide namesakes, and their files would be sent again.
      const children = new Map<string, DriveFile>();
      for await (const f of listAll(ctx.client, place.id)) children.set(f.name, f);
      place.children = children;
    }
    return place.children;
  };
  const placeOf = async (dir: string[]): Promise<Place> => {
    const key = dir.join('/');
    const known = places.get(key);
    if (known) return known;
    const parent = await placeOf(dir.slice(0, -1));
    const name = dir[dir.length - 1]!;
    const kids = await childrenOf(parent);
    const there = kids.get(name);
    if (there && !isFolder(there)) throw new CliError(`${inDrive(key)} is a file in the drive, not a folder.`, EXIT.CONFLICT);
    let place: Place;
    if (there) place = { id: there.id };
    else {
      const folder = (await ctx.client.call('createFile', { body: { kind: FOLDER_KIND, parent_id: parent.id, name } })).file!;
      kids.set(name, folder);
      place = { id: folder.id, children: new Map() };
    }
    places.set(key, place);
    return place;
  };

  const progress = makeProgress(!ctx.out.json);
  const results: Outcome[] = [];
  const count = { uploaded: 0, already_there: 0, skipped: 0, failed: 0 };
  let lastError: unknown;
  for (const job of jobs) {
    try {
      const place = await placeOf(job.dir);
      if (!job.name) continue; // an empty folder: made above
      const shown = [...job.dir, job.name].join('/');
      const kids = await childrenOf(place);
      const same = namesakes(kids, job.name, rule);
      const there = same[0];
      let hash: string | undefined;
      const size = statSync(job.local).size;
      // Same name, same size: the content decides, by the hash the server keeps (other sizes differ without reading).
      const candidates = same.filter((f) => !isFolder(f) && f.hash && Number(f.size) === size);
      if (candidates.length) {
        progress.start(`checking ${shown}`, size);
        hash = await localHash(job.local, (done) => progress.update(done));
        progress.stop();
        const match = candidates.find((f) => f.hash === hash);
        if (match) {
          count.already_there++;
          results.push({ path: job.local, status: 'already_there', file: match });
          ctx.out.note(`Already there: ${job.local} → ${[...job.dir, match.name].join('/')}`);
          continue;
        }
      }
      if (there && rule === 'skip') {
        const reason = isFolder(there) ? 'a folder of that name is there' : 'a file of that name with other content is there';
        count.skipped++;
        results.push({ path: job.local, status: 'skipped', reason, existing: there.id });
        ctx.out.note(`Skipped: ${job.local}: ${reason} (${shown}). Use --on-conflict rename to keep both, or --on-conflict overwrite to replace it.`);
        continue;
      }
      if (there && rule === 'overwrite' && isFolder(there)) throw new CliError(`${shown} is a folder in the drive; a file does not replace a folder.`, EXIT.CONFLICT);
      const replace = !!there && rule === 'overwrite';
      let phase = '';
      const done = await uploadFile(ctx.client, job.local, place.id, job.name, {
        hash,
        replace,
        onProgress: (p, bytes, total) => {
          if (p !== phase) {
            progress.start(`${p === 'hashing' ? 'checking' : 'sending'} ${shown}`, total);
            phase = p;
          }
          progress.update(bytes);
        },
      });
      progress.stop();
      kids.set(done.file.name, done.file);
      count.uploaded++;
      results.push({ path: job.local, status: 'uploaded', file: done.file, instant: done.instant, sent: String(done.sent), ...(replace ? { replaced: there!.id } : {}) });
      const placedAs = [...job.dir, done.file.name].join('/');
      const how = replace ? ', the old one is in the trash' : placedAs !== shown ? ', the name was taken' : done.instant ? ', already on the server' : '';
      ctx.out.note(`${done.instant ? 'Stored at once' : 'Uploaded'}: ${job.local} → ${placedAs} (${formatSize(done.file.size)}${how})`);
    } catch (err) {
      progress.stop();
      count.failed++;
      lastError = err;
      results.push({ path: job.local, status: 'failed', error: messageOf(err) });
      process.stderr.write(`Failed: ${job.local}: ${messageOf(err)}\n`);
    }
  }
  const files = jobs.filter((j) => j.name).length;
  // One file asked for and it failed: its own error and exit code, as any single command.
  if (jobs.length === 1 && count.failed === 1) throw lastError;
  ctx.out.result(results, () => `${count.uploaded} uploaded, ${count.already_there} already there, ${count.skipped} skipped, ${count.failed} failed.`);
  if (count.failed) throw new CliError(`${count.failed} of ${files} files failed.`, count.failed === files ? EXIT.ERROR : EXIT.PARTIAL);
}
