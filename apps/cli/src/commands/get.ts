/**
 * haul get ID|PATH [-o DEST]: a file, or a folder with everything in it (four files at a time). Bytes land in
 * DEST.part first, hashed as they arrive, and the file is renamed into place when complete and its BLAKE3 hash is the
 * server's; run again after an interruption, it asks for the rest only (a Range request) instead of starting over.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DriveFile } from '@haul/shared';
import { describeError, formatSize } from '@haul/shared/plain';
import type { Ctx } from '../context.js';
import { isFolder, listAll, resolveItem } from '../drive-paths.js';
import { readAll, sendFollowing } from '../http.js';
import { CliError, EXIT, exitCodeOf, messageOf } from '../output.js';
import { blake3, hashFileInto } from '../transfer/hash-file.js';
import { eachLimited, TRANSFERS } from '../transfer/pool.js';
import { makeProgress, makeRunProgress } from '../transfer/progress.js';

/** Where a download's bytes are reported: the bar of a single file, or the run's bar of several. */
interface Meter {
  begin(name: string, total: number, from: number): void;
  bytes(n: number): void;
  end(): void;
}

async function fetchFile(ctx: Ctx, f: DriveFile, dest: string, meter: Meter): Promise<{ resumedFrom: number }> {
  const fresh = await ctx.client.call('getFile', { params: { id: f.id } });
  const link = fresh.web_content_link;
  if (!link) throw new CliError(`${f.name} has no download link.`);
  // -o may name a folder that does not exist yet (-o downloads/2026/a.bin): made, as curl --create-dirs does.
  mkdirSync(dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  const have = existsSync(part) ? statSync(part).size : 0;
  const total = Number(fresh.size);
  const res = await sendFollowing(link, { headers: { 'User-Agent': 'haul-cli', ...(have > 0 && have < total ? { Range: `bytes=${have}-` } : {}) } });
  const status = res.statusCode ?? 0;
  if (status !== 200 && status !== 206) {
    const body = await readAll(res).then((t) => JSON.parse(t) as { error_description?: string }).catch(() => null);
    const words = body?.error_description ? describeError(body.error_description) : `${status} ${res.statusMessage ?? ''}`.trim();
    throw new CliError(`${f.name}: ${words}`, status === 404 ? EXIT.NOT_FOUND : status === 403 ? EXIT.LIMIT : EXIT.ERROR);
  }
  const resumedFrom = status === 206 ? have : 0;
  // The hash covers the whole file: the bytes kept from before first, then each chunk as it arrives (no second read).
  const hash = await blake3();
  if (resumedFrom) await hashFileInto(hash, part, undefined, resumedFrom);
  meter.begin(f.name, total, resumedFrom);
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      meter.bytes(chunk.length);
      done(null, chunk);
    },
  });
  await pipeline(res, counted, createWriteStream(part, { flags: resumedFrom ? 'a' : 'w' }));
  meter.end();
  if (statSync(part).size !== total) throw new CliError(`${f.name}: the download ended early; run the same command again to continue.`, EXIT.TEMPORARY);
  if (fresh.hash && hash.hex() !== fresh.hash) {
    unlinkSync(part);
    throw new CliError(`${f.name}: the bytes received do not match the file's hash; nothing was kept. Run again.`, EXIT.TEMPORARY);
  }
  renameSync(part, dest);
  return { resumedFrom };
}

export async function get(ctx: Ctx, ref: string, opts: { output?: string }): Promise<void> {
  const item = await resolveItem(ctx.client, ref);
  // Every file first (folders made on the way), then four at a time: each file's round trips overlap the others' bytes.
  const files: { f: DriveFile; dest: string }[] = [];
  const tree = async (folder: DriveFile | { id: string; name: string }, dir: string) => {
    mkdirSync(dir, { recursive: true });
    for await (const f of listAll(ctx.client, folder.id)) {
      if (isFolder(f)) await tree(f, join(dir, f.name));
      else files.push({ f, dest: join(dir, f.name) });
    }
  };
  if (isFolder(item)) await tree(item, opts.output ?? (item.id ? item.name : 'haul'));
  else {
    // Into a folder when -o names one that exists, or ends in "/" (made if missing).
    const intoFolder = !!opts.output && (/[\\/]$/.test(opts.output) || (existsSync(opts.output) && statSync(opts.output).isDirectory()));
    files.push({ f: item as DriveFile, dest: intoFolder ? join(opts.output!, item.name) : (opts.output ?? item.name) });
  }

  const meter = meterFor(!ctx.out.json, files.map((x) => Number(x.f.size)));
  const got: ({ path: string; id: string; size: string; resumed_from: number } | undefined)[] = [];
  const failures: { text: string; code: number }[] = [];
  await eachLimited(files, TRANSFERS, async ({ f, dest }, i) => {
    try {
      const { resumedFrom } = await fetchFile(ctx, f, dest, meter);
      got[i] = { path: dest, id: f.id, size: f.size, resumed_from: resumedFrom };
      meter.clear();
      ctx.out.note(`Downloaded ${dest} (${formatSize(f.size)}${resumedFrom ? `, continued from ${formatSize(resumedFrom)}` : ''})`);
    } catch (err) {
      meter.clear();
      failures.push({ text: `${dest}: ${messageOf(err)}`, code: exitCodeOf(err) });
      process.stderr.write(`Failed: ${dest}: ${messageOf(err)}\n`);
    }
  });
  meter.stop();
  const done = got.filter((x) => x !== undefined);
  ctx.out.result(done, () => `${done.length} file${done.length === 1 ? '' : 's'} downloaded.`);
  if (failures.length) {
    if (done.length === 0 && failures.length === 1) throw new CliError(failures[0]!.text, failures[0]!.code);
    throw new CliError(`${failures.length} file${failures.length === 1 ? '' : 's'} failed.`, done.length ? EXIT.PARTIAL : EXIT.ERROR);
  }
}

/** One file: its own bar (name, speed, time left); several: one bar for the run, files done and bytes of all. */
function meterFor(enabled: boolean, sizes: number[]): Meter & { clear(): void; stop(): void } {
  if (sizes.length === 1) {
    const bar = makeProgress(enabled);
    let done = 0;
    return {
      begin: (name, total, from) => {
        bar.start(name, total);
        bar.update((done = from));
      },
      bytes: (n) => bar.update((done += n)),
      end: () => bar.stop(),
      clear: () => bar.clear(),
      stop: () => bar.stop(),
    };
  }
  const run = makeRunProgress(enabled, sizes.length, sizes.reduce((a, b) => a + b, 0));
  return { begin: (_name, _total, from) => run.add(from), bytes: (n) => run.add(n), end: () => run.fileDone(), clear: () => run.clear(), stop: () => run.stop() };
}
