/**
 * haul get ID|PATH [-o DEST]: a file, or a folder with everything in it. Bytes land in DEST.part first and the file is
 * renamed into place when complete and verified against the server's BLAKE3 hash; run again after an interruption,
 * it asks for the rest only (a Range request) instead of starting over.
 */
import { createWriteStream, existsSync, mkdirSync, openAsBlob, renameSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DriveFile } from '@haul/shared';
import { describeError, formatSize } from '@haul/shared/plain';
import { hashBlob } from '@haul/client';
import type { Ctx } from '../context.js';
import { isFolder, listAll, resolveItem } from '../drive-paths.js';
import { CliError, EXIT, exitCodeOf, messageOf } from '../output.js';
import { makeProgress, type Progress } from '../transfer/progress.js';

async function fetchFile(ctx: Ctx, f: DriveFile, dest: string, progress: Progress): Promise<{ resumedFrom: number }> {
  const fresh = await ctx.client.call('getFile', { params: { id: f.id } });
  const link = fresh.web_content_link;
  if (!link) throw new CliError(`${f.name} has no download link.`);
  // -o may name a folder that does not exist yet (-o downloads/2026/a.bin): made, as curl --create-dirs does.
  mkdirSync(dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  const have = existsSync(part) ? statSync(part).size : 0;
  const total = Number(fresh.size);
  const res = await fetch(link, { headers: have > 0 && have < total ? { Range: `bytes=${have}-` } : {} });
  if (!res.ok && res.status !== 206) {
    const body = (await res.json().catch(() => null)) as { error_description?: string } | null;
    const words = body?.error_description ? describeError(body.error_description) : `${res.status} ${res.statusText}`;
    throw new CliError(`${f.name}: ${words}`, res.status === 404 ? EXIT.NOT_FOUND : res.status === 403 ? EXIT.LIMIT : EXIT.ERROR);
  }
  const resumedFrom = res.status === 206 ? have : 0;
  progress.start(f.name, total);
  let done = resumedFrom;
  const counted = Readable.fromWeb(res.body as never).on('data', (c: Buffer) => progress.update((done += c.length)));
  await pipeline(counted, createWriteStream(part, { flags: resumedFrom ? 'a' : 'w' }));
  progress.stop();
  if (statSync(part).size !== total) throw new CliError(`${f.name}: the download ended early; run the same command again to continue.`, EXIT.TEMPORARY);
  if (fresh.hash && (await hashBlob(await openAsBlob(part))) !== fresh.hash) {
    unlinkSync(part);
    throw new CliError(`${f.name}: the bytes received do not match the file's hash; nothing was kept. Run again.`, EXIT.TEMPORARY);
  }
  renameSync(part, dest);
  return { resumedFrom };
}

export async function get(ctx: Ctx, ref: string, opts: { output?: string }): Promise<void> {
  const item = await resolveItem(ctx.client, ref);
  const progress = makeProgress(!ctx.out.json);
  const got: { path: string; id: string; size: string; resumed_from: number }[] = [];
  const failures: { text: string; code: number }[] = [];
  const one = async (f: DriveFile, dest: string) => {
    try {
      const { resumedFrom } = await fetchFile(ctx, f, dest, progress);
      got.push({ path: dest, id: f.id, size: f.size, resumed_from: resumedFrom });
      ctx.out.note(`Downloaded ${dest} (${formatSize(f.size)}${resumedFrom ? `, continued from ${formatSize(resumedFrom)}` : ''})`);
    } catch (err) {
      progress.stop();
      failures.push({ text: `${dest}: ${messageOf(err)}`, code: exitCodeOf(err) });
      process.stderr.write(`Failed: ${dest}: ${messageOf(err)}\n`);
    }
  };
  const tree = async (folder: DriveFile | { id: string; name: string }, dir: string) => {
    mkdirSync(dir, { recursive: true });
    for await (const f of listAll(ctx.client, folder.id)) {
      if (isFolder(f)) await tree(f, join(dir, f.name));
      else await one(f, join(dir, f.name));
    }
  };
  if (isFolder(item)) await tree(item, opts.output ?? (item.id ? item.name : 'haul'));
  else {
    // Into a folder when -o names one that exists, or ends in "/" (made if missing).
    const intoFolder = !!opts.output && (/[\\/]$/.test(opts.output) || (existsSync(opts.output) && statSync(opts.output).isDirectory()));
    const dest = intoFolder ? join(opts.output!, item.name) : (opts.output ?? item.name);
    await one(item as DriveFile, dest);
  }
  ctx.out.result(got, () => `${got.length} file${got.length === 1 ? '' : 's'} downloaded.`);
  if (failures.length) {
    if (got.length === 0 && failures.length === 1) throw new CliError(failures[0]!.text, failures[0]!.code);
    throw new CliError(`${failures.length} file${failures.length === 1 ? '' : 's'} failed.`, got.length ? EXIT.PARTIAL : EXIT.ERROR);
  }
}
