/** haul upload PATH… [--to FOLDER]: files and folder trees, resumable, instant when the content is stored already. */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatSize } from '@haul/shared';
import type { Ctx } from '../context.js';
import { ensureFolder, resolveFolder } from '../drive-paths.js';
import { CliError, EXIT, messageOf } from '../output.js';
import { makeProgress } from '../transfer/progress.js';
import { uploadFile } from '../transfer/upload.js';

interface Job {
  local: string;
  /** Folder names below the destination ("Photos/2026"). */
  dir: string[];
  name: string;
}

/** The files under each path, with the folders they sit in; a folder brings its own name along, as cp -r does. */
function collect(paths: string[]): Job[] {
  const jobs: Job[] = [];
  const walk = (local: string, dir: string[]) => {
    const st = statSync(local);
    if (st.isDirectory()) {
      const inside = [...dir, basename(local)];
      const entries = readdirSync(local).sort();
      if (entries.length === 0) jobs.push({ local, dir: inside, name: '' });
      for (const e of entries) walk(join(local, e), inside);
    } else if (st.isFile()) jobs.push({ local, dir, name: basename(local) });
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

export async function upload(ctx: Ctx, paths: string[], opts: { to?: string }): Promise<void> {
  const jobs = collect(paths);
  const dest = await resolveFolder(ctx.client, opts.to ?? '/');
  const folders = new Map<string, string>([['', dest.id]]);
  const folderOf = async (dir: string[]): Promise<string> => {
    const key = dir.join('/');
    if (folders.has(key)) return folders.get(key)!;
    const parent = await folderOf(dir.slice(0, -1));
    const made = await ensureFolder(ctx.client, parent, dir[dir.length - 1]!);
    folders.set(key, made.id);
    return made.id;
  };

  const progress = makeProgress(!ctx.out.json);
  const results: unknown[] = [];
  let failed = 0;
  for (const job of jobs) {
    try {
      const parentId = await folderOf(job.dir);
      if (!job.name) continue; // an empty folder: made above
      const shown = [...job.dir, job.name].join('/');
      let phase = '';
      const done = await uploadFile(ctx.client, job.local, parentId, job.name, (p, bytes, total) => {
        if (p !== phase) progress.start(`${p === 'hashing' ? 'checking' : 'sending'} ${shown}`, total), (phase = p);
        progress.update(bytes);
      });
      progress.stop();
      results.push({ path: job.local, file: done.file, instant: done.instant, sent: String(done.sent) });
      ctx.out.note(`${done.instant ? 'Stored at once' : 'Uploaded'}: ${job.local} → ${shown} (${formatSize(done.file.size)}${done.instant ? ', already on the server' : ''})`);
    } catch (err) {
      progress.stop();
      failed++;
      results.push({ path: job.local, error: messageOf(err) });
      process.stderr.write(`Failed: ${job.local}: ${messageOf(err)}\n`);
      if (failed === 1 && jobs.length === 1) throw err;
    }
  }
  const files = jobs.filter((j) => j.name).length;
  ctx.out.result(results, () => `${files - failed} of ${files} file${files === 1 ? '' : 's'} uploaded.`);
  if (failed) throw new CliError(`${failed} of ${files} files failed.`, failed === files ? EXIT.ERROR : EXIT.PARTIAL);
}
