/**
 * Video: how fast Haul transcodes, and how soon a video shows its first frame in the web app.
 *  1. Transcode throughput: a 1080p H.264 + AAC source (testsrc2 and a sine tone) made into the 720p rendition by
 *     Haul's own `transcodeRendition` (as the worker calls it, without the queue), beside plain ffmpeg run with the
 *     argument list Haul used, alternating, as multiples of real time and the ratio ours/plain (aim >= 0.95).
 *  2. Time to first frame in Chromium, from the double click that opens the file to the first video frame
 *     (requestVideoFrameCallback): (a) an HEVC MKV never transcoded (aim under 2 s), (b) the same content once its
 *     renditions are done (aim under 0.5 s), (b') the same again, opened next in the same page (the viewer's code
 *     loaded, its details prefetched), (c) an MP4 the browser plays as is (the reference). Each is measured with
 *     hls.js and with Chromium's own HLS player. For (a) it prints the timeline in between: detail requests, the job
 *     claimed, the first segment on disk, playlist and segments; for the others the same on one line.
 * HAUL_BENCH_MEDIA_SECONDS (60), HAUL_BENCH_MEDIA_CLIP_SECONDS (20) and HAUL_BENCH_MEDIA_ROUNDS (2) shorten runs;
 * HAUL_BENCH_MEDIA_ONLY=transcode|play runs one half.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { PHASE } from '@haul/shared';
import { loadConfig } from '../apps/server/src/config.js';
import type { AppContext } from '../apps/server/src/context.js';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { parsePlaylist } from '../apps/server/src/media/hls-playlist.js';
import { PLAYLIST_NAME, transcodeRendition } from '../apps/server/src/media/hls-transcode.js';
import { mediaDir } from '../apps/server/src/media/media-blobs.js';
import { findJob, listRenditions } from '../apps/server/src/media/media.repository.js';
import { renditionPlan } from '../apps/server/src/media/playback.policy.js';
import { listView, sessionUserId, signUpInBrowser, startE2E } from '../e2e/harness.js';
import { NO_NATIVE_HLS, STOPWATCH, type Marks } from './player-scripts.js';

const SECONDS = Number(process.env.HAUL_BENCH_MEDIA_SECONDS ?? 60);
const CLIP_SECONDS = Number(process.env.HAUL_BENCH_MEDIA_CLIP_SECONDS ?? 20);
const ROUNDS = Number(process.env.HAUL_BENCH_MEDIA_ROUNDS ?? 2);
const ONLY = process.env.HAUL_BENCH_MEDIA_ONLY ?? '';
/** The priority Haul gives its ffmpeg runs (media-tools.ts); plain ffmpeg gets the same so only the wrapper differs. */
const NICE = 10;
const FFMPEG = '/usr/bin/ffmpeg';

if (!existsSync(FFMPEG)) throw new Error('ffmpeg is needed: install it with "apt-get install -y ffmpeg".');
const work = mkdtempSync(join(tmpdir(), 'haul-bench-media-'));
const ff = (...args: string[]) => execFileSync(FFMPEG, ['-hide_banner', '-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
const load = () => loadavg()[0]!.toFixed(1);
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** CPU seconds (user + system) of this process's children that have ended: each ffmpeg, once it has exited. */
function childCpuSeconds(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}

/** Records the command lines spawned while `fn` runs, through the built-in module's live bindings. */
async function recordingSpawns<T>(fn: () => Promise<T>): Promise<{ result: T; calls: { bin: string; args: string[] }[] }> {
  const cp = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const original = cp.spawn;
  const calls: { bin: string; args: string[] }[] = [];
  cp.spawn = ((bin: string, args: readonly string[], opts: object) => {
    calls.push({ bin, args: [...args] });
    return original(bin, args, opts);
  }) as typeof cp.spawn;
  syncBuiltinESMExports();
  try {
    return { result: await fn(), calls };
  } finally {
    cp.spawn = original;
    syncBuiltinESMExports();
  }
}

/** Runs a command as runTool does (niced, stdout and stderr piped and drained); resolves when it has exited. */
function runPlain(bin: string, args: string[], cwd: string): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid) setPriority(child.pid, NICE);
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`ffmpeg exited with ${code}: ${err}`))));
  });
}

async function transcodeThroughput() {
  const source = join(work, 'source.mp4');
  const t0 = performance.now();
  ff(
    '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k',
    '-movflags', '+faststart', source,
  );
  console.log(`\ntranscode: ${SECONDS} s 1080p30 H.264 + AAC source made in ${sec(performance.now() - t0)}; 720p rendition, ${ROUNDS} rounds`);
  const config = loadConfig({});
  const plan = renditionPlan({ width: 1920, height: 1080 }).find((p) => p.name === '720p')!;
  const scratch = join(work, 'scratch');
  const fresh = () => {
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch);
  };
  const segments = () => {
    const p = parsePlaylist(readFileSync(join(scratch, PLAYLIST_NAME), 'utf8'));
    if (!p.ended || !p.map) throw new Error('the rendition playlist is not complete');
    return p.segments.length;
  };
  let command: { bin: string; args: string[] } | null = null;
  const runs = { ours: [] as number[], plain: [] as number[] };
  const cpus = { ours: [] as number[], plain: [] as number[] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const who of ['ours', 'plain'] as const) {
      fresh();
      const loadBefore = load();
      const cpu0 = childCpuSeconds();
      const s = performance.now();
      if (who === 'ours') {
        const { calls } = await recordingSpawns(() =>
          transcodeRendition(config, {
            source, scratch, width: plan.width, height: plan.height, bandwidth: plan.bandwidth, hasAudio: true,
            duration: SECONDS, signal: new AbortController().signal, onProgress: () => undefined,
          }),
        );
        if (calls.length !== 1) throw new Error(`expected one ffmpeg run, saw ${calls.length}`);
        if (!command) {
          command = calls[0]!;
          console.log(`  Haul's command line: ${command.bin} ${command.args.map((a) => (/[\s*()]/.test(a) ? `'${a}'` : a)).join(' ')}`);
        }
      } else {
        await runPlain(command!.bin, command!.args, scratch);
      }
      const wall = performance.now() - s;
      const cpu = childCpuSeconds() - cpu0;
      runs[who].push(wall);
      cpus[who].push(cpu);
      console.log(
        `  round ${round} ${who === 'ours' ? 'Haul transcodeRendition' : 'plain ffmpeg           '}: ${sec(wall)}  ${(SECONDS / (wall / 1000)).toFixed(2)}x real time` +
          `  cpu ${cpu.toFixed(1)} s  ${segments()} segments  (load ${loadBefore})`,
      );
    }
  }
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const ours = SECONDS / (total(runs.ours) / runs.ours.length / 1000);
  const plain = SECONDS / (total(runs.plain) / runs.plain.length / 1000);
  console.log(`  mean: Haul ${ours.toFixed(2)}x real time, plain ffmpeg ${plain.toFixed(2)}x; ours/plain ${(ours / plain).toFixed(3)}   (aim >= 0.95)`);
  // On a shared machine the wall time follows the load; the CPU each run used does not.
  console.log(
    `  CPU used: Haul ${(total(cpus.ours) / cpus.ours.length).toFixed(1)} s, plain ${(total(cpus.plain) / cpus.plain.length).toFixed(1)} s;` +
      ` plain/ours ${(total(cpus.plain) / total(cpus.ours)).toFixed(3)}   (both at nice ${NICE}, the priority Haul gives its ffmpeg runs)`,
  );
}

/** Server-side moments of a transcode (job claimed, each rendition started and its first segment on disk), by polling. */
function watchTranscode(ctx: AppContext, hash: string) {
  const marks = new Map<string, number>();
  let on = true;
  const mark = (k: string) => !marks.has(k) && marks.set(k, Date.now());
  const loop = (async () => {
    while (on) {
      const job = await findJob(ctx.db, hash);
      if (job) mark('job queued');
      if (job && job.phase !== PHASE.PENDING) mark('job claimed');
      for (const r of await listRenditions(ctx.db, hash)) {
        if (!r.scratch) continue;
        mark(`${r.name} ffmpeg started`);
        if (existsSync(mediaDir(ctx, 'scratch', r.scratch, PLAYLIST_NAME))) mark(`${r.name} first segment on disk`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return async () => {
    on = false;
    await loop;
    return marks;
  };
}

/** What a request of the player is, for the timeline ('' for requests it does not need). */
function describeRequest(url: string): string {
  const u = new URL(url);
  const p = u.pathname;
  if (/\/drive\/v1\/files\/[^/]+$/.test(p) && u.searchParams.get('usage') === 'PLAY') return 'file details (usage=PLAY)';
  if (p.endsWith('/origin')) return 'original bytes';
  if (p.endsWith('/index.m3u8')) return `playlist ${p.split('/').at(-2)}`;
  if (p.endsWith('/init.mp4')) return 'init segment';
  if (p.endsWith('.m4s')) return `segment ${p.split('/').at(-1)}`;
  if (/\/hls-[\w-]+\.js$/.test(p)) return 'hls.js chunk';
  if (/\/viewer-[\w-]+\.js$/.test(p)) return 'viewer chunk';
  return '';
}

async function timeToFirstFrame() {
  const WEB_DIR = resolve(import.meta.dirname, '../apps/web/dist');
  if (!existsSync(join(WEB_DIR, 'index.html'))) spawnSync('npm', ['run', 'build', '-w', '@haul/web'], { stdio: 'inherit' });
  const movie = join(work, 'movie.mkv');
  const clip = join(work, 'clip.mp4');
  const lavfi = ['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=48000', '-t', String(CLIP_SECONDS)];
  ff(...lavfi, '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-c:a', 'aac', movie);
  ff(...lavfi, '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', clip);
  // Each open of a never-transcoded video gets content of its own (a different title tag): a first transcode again.
  let variants = 0;
  const variant = (path: string) => {
    const out = path.replace(/(\.\w+)$/, `-${++variants}$1`);
    ff('-i', path, '-map', '0', '-c', 'copy', '-metadata', `title=variant ${variants}`, ...(out.endsWith('.mp4') ? ['-movflags', '+faststart'] : []), out);
    return readFileSync(out);
  };

  const e2e = await startE2E();
  const { ctx } = e2e.haul;
  try {
    const requests: { t: number; what: string }[] = [];
    let opening = '';
    const players = [] as { label: string; page: Page; userId: string }[];
    for (const [label, init] of [
      ['hls.js', NO_NATIVE_HLS],
      ["Chromium's native HLS", ''],
    ] as const) {
      const { page, context } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
      if (init) await context.addInitScript(init);
      // Details of the neighbours the viewer prefetches are left out: only the file being opened counts.
      const ofOpened = (url: string) => !url.includes('/drive/v1/files/') || url.includes(opening);
      page.on('request', (r) => {
        const what = describeRequest(r.url());
        if (what && ofOpened(r.url())) requests.push({ t: Date.now(), what: `asks ${what}` });
      });
      page.on('response', (r) => {
        const what = describeRequest(r.url());
        if (what.startsWith('file details') && ofOpened(r.url())) requests.push({ t: Date.now(), what: `has ${what}` });
      });
      await signUpInBrowser(page);
      // The display mode is remembered: rows from here on.
      await listView(page);
      players.push({ label, page, userId: await sessionUserId(page) });
    }
    /** Waits until no transcode is queued or running; the seconds it took. */
    const idle = async () => {
      const s = Date.now();
      for (;;) {
        const busy = await ctx.db.selectFrom('media_jobs').select('hash').where('phase', 'in', [PHASE.PENDING, PHASE.RUNNING]).execute();
        if (busy.length === 0) return (Date.now() - s) / 1000;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const place = async (userId: string, folderName: string, name: string, bytes: Buffer) => {
      const folder = await createFolder(ctx, userId, '', folderName);
      const { id } = await e2e.seedFile(userId, folder.id, name, bytes as unknown as string);
      const row = await ctx.db.selectFrom('files').select('hash').where('id', '=', id).executeTakeFirstOrThrow();
      return { folder: folder.id, id, name, hash: row.hash };
    };
    /** Double-clicks a row of the page shown and times the viewer until the first frame (or its error panel). */
    const timeOpen = async (page: Page, f: { id: string; name: string }): Promise<Marks> => {
      const row = page.getByRole('row', { name: f.name });
      await row.waitFor({ timeout: 120_000 });
      await page.evaluate(STOPWATCH);
      requests.length = 0;
      opening = f.id;
      await row.dblclick();
      const done = await page.waitForFunction(
        () => {
          const m = (window as unknown as { __ttff: Marks }).__ttff;
          return m.failed || (m.frame && m.playing) ? m : null;
        },
        null,
        { timeout: 300_000, polling: 50 },
      );
      return (await done.jsonValue()) as Marks;
    };
    /** The first open after loading the folder's page: the viewer's code is not loaded in the page yet. */
    const open = async (page: Page, f: { folder: string; id: string; name: string }): Promise<Marks> => {
      await page.goto(`/drive/all/${f.folder}`);
      return timeOpen(page, f);
    };
    const line = (label: string, m: Marks, extra = '') =>
      console.log(
        m.failed
          ? `  ${label}: FAILED, the viewer showed "cannot be played" after ${sec(m.failed - m.t0)}${extra}`
          : `  ${label}: first frame ${sec(m.frame - m.t0)}, playing ${sec(m.playing - m.t0)}` +
              `  [${m.media}${m.media === 'origin' ? '' : m.src === 'blob:' ? ', hls.js' : ', native HLS'}]${extra}`,
      );
    /** What happened between the click and the first frame, in order; `compact` puts it on one line. */
    const printTimeline = (m: Marks, server: Map<string, number>, compact = false) => {
      const end = m.failed || m.frame;
      const events = [
        ...requests,
        ...[...server].map(([what, t]) => ({ t, what: `server: ${what}` })),
        { t: end, what: m.failed ? 'error shown' : 'first frame' },
      ]
        .filter((e) => e.t <= end)
        .sort((x, y) => x.t - y.t);
      let segments = 0;
      const shown: string[] = [];
      for (const e of events) {
        // Segments fetched back to back say little each; keep the first two.
        if (e.what.startsWith('asks segment') && ++segments > 2) continue;
        shown.push(compact ? `+${Math.round(e.t - m.t0)} ${e.what}` : `      +${String(Math.round(e.t - m.t0)).padStart(5)} ms  ${e.what}`);
      }
      console.log(compact ? `      ${shown.join(', ')}` : shown.join('\n'));
    };

    /** (a) in five spans: viewer start, details answered, first segment written, seen by the player, played. */
    const breakdown = (m: Marks, server: Map<string, number>) => {
      const asked = requests.find((r) => r.what.startsWith('asks file details'))?.t ?? m.t0;
      const answered = requests.find((r) => r.what.startsWith('has file details'))?.t ?? asked;
      const segment = Math.min(...[...server].filter(([k]) => k.endsWith('first segment on disk')).map(([, t]) => t));
      const seen = requests.find((r) => r.what.startsWith('has file details') && r.t >= segment)?.t ?? segment;
      const span = (a: number, b: number) => `${((b - a) / 1000).toFixed(2)} s`;
      return (
        `spans: click to details asked ${span(m.t0, asked)}, details answered ${span(asked, answered)},` +
        ` first segment written ${span(answered, segment)}, seen by the next poll ${span(segment, seen)}, to the frame ${span(seen, m.frame)}`
      );
    };

    console.log(`\ntime to first frame, Chromium on loopback, ${CLIP_SECONDS} s 1080p clips, from the double click on the row`);
    const results = new Map(players.map((p) => [p.label, { direct: [] as number[], fresh: [] as number[], done: [] as number[], next: [] as number[], failed: 0 }]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const { label, page, userId } of players) {
        const res = results.get(label)!;
        const mkv = variant(movie);
        const direct = await place(userId, `Direct ${round}`, `clip-${round}.mp4`, variant(clip));
        const fresh = await place(userId, `New ${round}`, `movie-${round}.mkv`, mkv);
        const done = await place(userId, `Done ${round}`, `again-${round}.mkv`, mkv);
        const next = { name: `next-${round}.mkv`, id: '' };
        next.id = (await e2e.seedFile(userId, done.folder, next.name, mkv as unknown as string)).id;
        console.log(` round ${round}, renditions played by ${label} (load ${load()})`);

        // (c) The reference: the browser plays the MP4 itself. Opening it queues its renditions too; wait them out.
        const c = await open(page, direct);
        res.direct.push(c.frame - c.t0);
        line('(c) MP4 played as is        ', c);
        printTimeline(c, new Map(), true);
        const waitedC = await idle();

        // (a) Never transcoded: the first play starts the job and the player waits for a first segment.
        const stop = watchTranscode(ctx, fresh.hash);
        const a = await open(page, fresh);
        const server = await stop();
        if (a.failed) res.failed++;
        else res.fresh.push(a.frame - a.t0);
        line('(a) HEVC MKV, not transcoded', a, `  (after ${waitedC.toFixed(0)} s waiting for the MP4's renditions)`);
        printTimeline(a, server);
        if (!a.failed) console.log(`      ${breakdown(a, server)}`);
        const waitedA = await idle();
        console.log(`      all three renditions done ${waitedA.toFixed(0)} s later (job ${(await findJob(ctx.db, fresh.hash))?.phase})`);

        // (b) The same bytes in another file, renditions done: only the player's own start remains.
        const b = await open(page, done);
        res.done.push(b.frame - b.t0);
        line('(b) HEVC MKV, transcoded    ', b);
        printTimeline(b, new Map(), true);
        // (b') Closed, then the next file of the folder: the viewer's code is loaded and its details were prefetched.
        await page.keyboard.press('Escape');
        await page.locator('.viewer').waitFor({ state: 'detached' });
        const b2 = await timeOpen(page, next);
        res.next.push(b2.frame - b2.t0);
        line("(b') next one, viewer loaded", b2);
        printTimeline(b2, new Map(), true);
      }
    }
    const mean = (xs: number[]) => (xs.length ? sec(xs.reduce((s, x) => s + x, 0) / xs.length) : 'n/a');
    for (const [label, r] of results) {
      console.log(
        `  mean first frame with ${label}: (a) ${mean(r.fresh)}${r.failed ? ` (failed ${r.failed} of ${ROUNDS})` : ''} (aim < 2 s),` +
          ` (b) ${mean(r.done)} (aim < 0.5 s), (b') ${mean(r.next)}, (c) ${mean(r.direct)}`,
      );
    }
  } finally {
    await e2e.close();
  }
}

try {
  if (ONLY !== 'play') await transcodeThroughput();
  if (ONLY !== 'transcode') await timeToFirstFrame();
} finally {
  rmSync(work, { recursive: true, force: true });
}
