/**
 * Uploads, measured against references doing the same work in the same run:
 *  - a 1 GB file of random bytes through Haul's tus endpoint (tus-js-client sending from memory in 16 MiB chunks, as
 *    the web app sends), from creating the upload to the file being visible, beside `curl -T` of the same file into
 *    nginx's PUT (aim: Haul at 0.7 of nginx or better);
 *  - BLAKE3 of that file in Chromium's Web Worker (the web app's hash worker) beside `b3sum`;
 *  - the Haul process's peak memory during a 5 GB upload, beside its memory before (aim: flat, under 300 MB).
 * HAUL_BENCH_UPLOAD_MB and HAUL_BENCH_BIG_UPLOAD_MB change the sizes (MiB; a big size of 0 skips that run);
 * HAUL_BENCH_ROUNDS the turns each side takes at the 1 GB upload (default 3, the medians are compared);
 * HAUL_BENCH_BROWSER_HASH=0 skips the hashing in Chromium.
 */
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import * as tus from 'tus-js-client';
import { hashInChromium } from './browser-hash.js';
import type { HaulClient } from '@haul/client';
import { signUpClient } from './fixtures.js';
import { cpuSecondsOf, sampleRss, startHaulProcess, type HaulProcess } from './haul-process.js';
import { b3sum, Cleanup, flushDisk, loadLine, mbps, median, MiB, requireTool, runTimed, startNginx, writeRandomFile } from './references.js';

const UPLOAD_BYTES = Number(process.env.HAUL_BENCH_UPLOAD_MB ?? 1024) * MiB;
const BIG_UPLOAD_BYTES = Number(process.env.HAUL_BENCH_BIG_UPLOAD_MB ?? 5120) * MiB;
/** The web app's tus chunk size (apps/web/src/features/uploads/upload-manager.ts). */
const CHUNK = 16 * MiB;
const ROUNDS = Math.max(1, Number(process.env.HAUL_BENCH_ROUNDS ?? 3));
const BROWSER_HASH = process.env.HAUL_BENCH_BROWSER_HASH !== '0';
const mb = (n: number) => `${(n / MiB).toFixed(0)} MB`;

interface Timed {
  seconds: number;
  /** When the client had handed over the last byte (the rest is the server checking and storing the file). */
  sentSeconds: number;
  hash: string;
  /** CPU seconds the server process and the client (this process) used meanwhile. */
  serverCpu: number;
  clientCpu: number;
}

/** tus-js-client's own HTTP stack, noting when a request body was last handed over in full (its progress events are throttled). */
class TimingStack implements tus.HttpStack {
  private readonly inner = new tus.DefaultHttpStack({});
  lastBodyEnd = 0;
  createRequest(method: string, url: string): tus.HttpRequest {
    const req = this.inner.createRequest(method, url);
    const send = req.send.bind(req);
    req.send = (body: unknown) => {
      const sent = send(body);
      // The request exists once send() has started; 'finish' is the body's last byte handed to the socket.
      (req.getUnderlyingObject() as Writable).once('finish', () => (this.lastBodyEnd = performance.now()));
      return sent;
    };
    return req;
  }
  getName(): string {
    return 'timing';
  }
}

/**
 * Creates the upload, sends the bytes over tus and waits until its task is complete: the way the web app uploads.
 * `source` is the file's bytes in memory or, for files too large for a Buffer, its path (read as it is sent).
 */
async function uploadThroughHaul(haul: HaulProcess, client: HaulClient, token: string, source: Buffer | string, size: number, name: string): Promise<Timed> {
  const t0 = performance.now();
  const cpu0 = cpuSecondsOf(haul.pid);
  const me0 = process.cpuUsage();
  // No hash announced: for files over 100 MB the web app only hashes first when the server may already hold them.
  const created = await client.call('createFile', { body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size: String(size), parent_id: '' } });
  const taskId = created.task!.id;
  const stack = new TimingStack();
  await new Promise<void>((resolve, reject) => {
    const up = new tus.Upload(typeof source === 'string' ? createReadStream(source) : source, {
      uploadUrl: created.resumable!.params.upload_url,
      headers: { authorization: `Bearer ${token}` },
      chunkSize: CHUNK,
      retryDelays: [],
      httpStack: stack,
      onSuccess: () => resolve(),
      onError: reject,
    });
    up.start();
  });
  let task = await client.call('getTask', { params: { id: taskId } });
  while (task.phase !== 'PHASE_TYPE_COMPLETE') {
    if (task.phase === 'PHASE_TYPE_ERROR') throw new Error(`upload failed: ${task.message}`);
    await new Promise((r) => setTimeout(r, 50));
    task = await client.call('getTask', { params: { id: taskId } });
  }
  const seconds = (performance.now() - t0) / 1000;
  const me = process.cpuUsage(me0);
  const serverCpu = cpuSecondsOf(haul.pid) - cpu0;
  const file = await client.call('getFile', { params: { id: task.file_id } });
  if (Number(file.size) !== size) throw new Error(`the stored file has ${file.size} bytes, not ${size}`);
  return { seconds, sentSeconds: ((stack.lastBodyEnd || performance.now()) - t0) / 1000, hash: file.hash, serverCpu, clientCpu: (me.user + me.system) / 1e6 };
}

const cleanup = new Cleanup();
try {
  requireTool('/usr/bin/curl', 'curl');
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-upload-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));
  const file = join(work, 'random.bin');
  let t = performance.now();
  await writeRandomFile(file, UPLOAD_BYTES);
  console.log(`wrote ${mb(UPLOAD_BYTES)} of random bytes in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // 1. Upload speed: nginx PUT and Haul, taking turns (the cores are shared: one round alone can mislead).
  console.log(loadLine());
  const nginx = await startNginx(join(work, 'nginx'));
  cleanup.add(() => nginx.stop());
  const haul = await startHaulProcess();
  cleanup.add(() => haul.stop());
  const { client, tokens } = await signUpClient(haul.base, 'bench-upload@example.com');
  const puts: number[] = [];
  const putCpu: { server: number; client: number }[] = [];
  const ups: Timed[] = [];
  // The client sends from memory: read through fs streams, tus-js-client spends 2 to 5 s of CPU a GB (mostly garbage
  // collection of the 64 KiB read buffers) on the same two cores as the server; curl reads its file at ~0.4 s a GB.
  let bytes: Buffer | null = readFileSync(file);
  const rss = sampleRss(haul.pid);
  for (let round = 1; round <= ROUNDS; round++) {
    flushDisk();
    const nginxCpu = cpuSecondsOf(nginx.pid);
    const curl = await runTimed('/usr/bin/curl', ['-sS', '-f', '-T', file, `${nginx.base}/x`], { cpu: true });
    puts.push(curl.seconds);
    putCpu.push({ server: cpuSecondsOf(nginx.pid) - nginxCpu, client: curl.cpuSeconds });
    rmSync(join(nginx.root, 'x'), { force: true });
    flushDisk();
    ups.push(await uploadThroughHaul(haul, client, tokens.access_token, bytes, UPLOAD_BYTES, `random-${round}.bin`));
  }
  const mem = rss.stop();
  bytes = null;
  await haul.stop();
  await nginx.stop();
  const put = median(puts);
  const up = median(ups.map((u) => u.seconds));
  const upHash = ups[0]!.hash;

  // 2. Hashing: b3sum (all cores, then one) and the web app's worker in Chromium, on the same file.
  const ref = await b3sum(file);
  const ref1 = await b3sum(file, 1);
  const browser = BROWSER_HASH ? await hashInChromium(file) : null;
  const hashesAgree = ref.hash === ref1.hash && (!browser || ref.hash === browser.hash) && ups.every((u) => u.hash === ref.hash);
  rmSync(file, { force: true });

  console.log(`\nupload of ${mb(UPLOAD_BYTES)} over loopback`);
  const secs = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  console.log(`  Haul (tus, ${CHUNK / MiB} MiB chunks, creation to visible): median ${up.toFixed(2)} s ${mbps(UPLOAD_BYTES, up)}   rounds: ${secs(ups.map((u) => u.seconds))} s`);
  console.log(`    of which after the client handed over the last byte (check, store, place): ${secs(ups.map((u) => u.seconds - u.sentSeconds))} s`);
  console.log(`  nginx PUT (curl -T):                            median ${put.toFixed(2)} s ${mbps(UPLOAD_BYTES, put)}   rounds: ${secs(puts)} s`);
  console.log(`  Haul/nginx: ${(put / up).toFixed(2)}   (aim >= 0.7)`);
  const cpu = (xs: { server: number; client: number }[]) => xs.map((x) => `${x.server.toFixed(1)}+${x.client.toFixed(1)}`).join(', ');
  console.log(`  CPU seconds, server+client, per round: Haul+tus-js-client ${cpu(ups.map((u) => ({ server: u.serverCpu, client: u.clientCpu })))} | nginx+curl ${cpu(putCpu)}`);
  console.log(`  Haul process RSS: ${mb(mem.before)} before, peak ${mb(mem.peak)} sampled${mem.hwm ? `, ${mb(mem.hwm)} VmHWM` : ''}`);
  console.log(`\nBLAKE3 of the same ${mb(UPLOAD_BYTES)}`);
  if (browser) console.log(`  Chromium Web Worker (hash-wasm, the web app's worker): ${browser.seconds.toFixed(2)} s ${mbps(UPLOAD_BYTES, browser.seconds)}`);
  console.log(`  b3sum, all cores:                                      ${ref.seconds.toFixed(2)} s ${mbps(UPLOAD_BYTES, ref.seconds)}`);
  console.log(`  b3sum --num-threads 1:                                 ${ref1.seconds.toFixed(2)} s ${mbps(UPLOAD_BYTES, ref1.seconds)}`);
  console.log(
    (browser ? `  worker/b3sum: ${(ref.seconds / browser.seconds).toFixed(2)} (all cores), ${(ref1.seconds / browser.seconds).toFixed(2)} (one thread)` : ' ') +
      `   hashes ${hashesAgree ? `agree (${browser ? 'browser, ' : ''}b3sum, Haul)` : `DIFFER: b3sum ${ref.hash} browser ${browser?.hash} Haul ${upHash}`}`,
  );
  if (!hashesAgree) process.exitCode = 1;

  // 3. Memory during a large upload, on a fresh server (a premium account: over 4 GB needs one); sent from the file.
  if (BIG_UPLOAD_BYTES > 0) {
    t = performance.now();
    await writeRandomFile(file, BIG_UPLOAD_BYTES);
    console.log(`\nwrote ${mb(BIG_UPLOAD_BYTES)} of random bytes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const big = await startHaulProcess();
    cleanup.add(() => big.stop());
    const { client: bigClient, tokens: owner } = await signUpClient(big.base, 'bench-big-upload@example.com');
    const db = new SQLite(join(big.dataDir, 'haul.db'));
    db.prepare('UPDATE users SET premium_expire = ? WHERE id = ?').run(Date.now() + 86_400_000, owner.sub);
    db.close();
    flushDisk();
    const bigRss = sampleRss(big.pid);
    const bigUp = await uploadThroughHaul(big, bigClient, owner.access_token, file, BIG_UPLOAD_BYTES, 'big.bin');
    const bigMem = bigRss.stop();
    rmSync(file, { force: true });
    await big.stop();
    console.log(`upload of ${mb(BIG_UPLOAD_BYTES)}: ${bigUp.seconds.toFixed(1)} s ${mbps(BIG_UPLOAD_BYTES, bigUp.seconds)}`);
    console.log(
      `  Haul process RSS: ${mb(bigMem.before)} before, peak ${mb(bigMem.peak)} (${bigMem.samples} samples, every 100 ms)` +
        `${bigMem.hwm ? `, ${mb(bigMem.hwm)} VmHWM` : ''}   (aim: flat, under 300 MB)`,
    );
  }
  console.log(loadLine());
} finally {
  await cleanup.run();
}
