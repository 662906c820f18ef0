/**
 * Transfers to and from S3 (OpenStack Swift with its s3api layer on loopback, the tests' S3 server), in one run:
 *  - Haul on `HAUL_BLOB_STORE=s3` (child process): a file of random bytes uploaded over tus (16 MiB chunks from memory,
 *    as the web app sends; timed from creating the upload to the file being visible, so it includes making the finished
 *    upload the blob), twice: declaring its BLAKE3 hash at creation as the web app and the command line do (the upload
 *    gathers at its content key), and without it (gathered under uploads/, copied to the content key at the end);
 *    then downloaded through `GET /drive/v1/content/...` streaming through Haul;
 *  - the AWS SDK straight to the same Swift server: `@aws-sdk/lib-storage` Upload of the same bytes (the part size and
 *    parts in flight of Haul's blob store) and GetObject read to the end.
 * Both downloads are read with the same client stack (node:http, which the SDK uses). Prints MB/s and Haul/SDK ratios,
 * and the CPU seconds of Haul, of Swift's servers and of this process.
 * HAUL_BENCH_S3_MB sets the size (MiB, default 1024; a whole run takes about two minutes here). Run alone:
 * `node --import tsx bench/s3-transfer.bench.ts`, or `npm run bench -- s3`.
 */
import { createHash, randomFillSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import * as tus from 'tus-js-client';
import { s3Client } from '../apps/server/src/storage/s3-blob-store.js';
import { contentHashOf } from '../apps/server/src/storage/content-hash.js';
import { s3ConfigFor, startTestS3 } from '../apps/server/test/s3-server.js';
import { proofAnswer } from '../apps/server/test/upload-proof.js';
import { signUpClient } from './fixtures.js';
import { cpuSecondsOf, sampleRss, startHaulProcess } from './haul-process.js';
import { Cleanup, loadLine, mbps, MiB } from './references.js';

const BYTES = Number(process.env.HAUL_BENCH_S3_MB ?? 1024) * MiB;
/** The web app's tus chunk size; Haul's S3 store's part size and parts in flight (s3-blob-store.ts). */
const CHUNK = 16 * MiB;
const PART = 8 * MiB;
const QUEUE = 2;

/** The Swift and memcached processes this process started (each dies with it), for their CPU time. */
function s3Pids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.split(') ')[1]!.split(' ')[1]) === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('launch.py');
      } catch {
        return false;
      }
    });
}

/** CPU seconds used meanwhile by Haul, by Swift's servers and by this process (the client side). */
function cpuMeter(haulPid: number, swift: number[]) {
  const swiftCpu = () => swift.reduce((s, pid) => s + cpuSecondsOf(pid), 0);
  const h0 = cpuSecondsOf(haulPid);
  const s0 = swiftCpu();
  const me0 = process.cpuUsage();
  return () => {
    const me = process.cpuUsage(me0);
    return { haul: cpuSecondsOf(haulPid) - h0, swift: swiftCpu() - s0, client: (me.user + me.system) / 1e6 };
  };
}
type Cpu = ReturnType<ReturnType<typeof cpuMeter>>;
const cpuText = (c: Cpu, haul = true) => `CPU ${haul ? `Haul ${c.haul.toFixed(1)} s, ` : ''}Swift ${c.swift.toFixed(1)} s, client ${c.client.toFixed(1)} s`;

/** tus-js-client's own HTTP stack, noting when a request body was last handed over in full (the last PATCH's answer
 * only comes once the server has moved the finished upload into the bucket). */
class TimingStack implements tus.HttpStack {
  private readonly inner = new tus.DefaultHttpStack({});
  lastBodyEnd = 0;
  createRequest(method: string, url: string): tus.HttpRequest {
    const req = this.inner.createRequest(method, url);
    const send = req.send.bind(req);
    req.send = (body: unknown) => {
      const sent = send(body);
      (req.getUnderlyingObject() as Writable).once('finish', () => (this.lastBodyEnd = performance.now()));
      return sent;
    };
    return req;
  }
  getName(): string {
    return 'timing';
  }
}

/** Reads a stream to its end: SHA-256 of what came (native, ~1.4 GB/s here) and how many bytes. */
async function drain(body: AsyncIterable<Uint8Array>): Promise<{ sha: string; n: number }> {
  const h = createHash('sha256');
  let n = 0;
  for await (const chunk of body) {
    h.update(chunk);
    n += chunk.length;
  }
  return { sha: h.digest('hex'), n };
}

const cleanup = new Cleanup();
try {
  console.log(`S3 transfer of ${BYTES / MiB} MiB; ${loadLine()}`);
  const s3 = await startTestS3();
  cleanup.add(() => s3.stop());
  const swift = s3Pids();
  const haulCfg = await s3ConfigFor(s3, 'haul-bench');
  const refCfg = await s3ConfigFor(s3, 'sdk-bench');
  const haul = await startHaulProcess({
    HAUL_BLOB_STORE: 's3',
    HAUL_S3_ENDPOINT: s3.endpoint,
    HAUL_S3_BUCKET: haulCfg.bucket,
    HAUL_S3_REGION: s3.region,
    HAUL_S3_ACCESS_KEY_ID: s3.accessKeyId,
    HAUL_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  });
  cleanup.add(() => haul.stop());
  const { client, tokens } = await signUpClient(haul.base, 'bench-s3@example.com');
  const sdk = s3Client(refCfg);
  cleanup.add(() => sdk.destroy());

  let t = performance.now();
  const bytes = Buffer.allocUnsafe(BYTES);
  for (let at = 0; at < BYTES; at += 64 * MiB) randomFillSync(bytes, at, Math.min(64 * MiB, BYTES - at));
  const sha = createHash('sha256').update(bytes).digest('hex');
  console.log(`made ${BYTES / MiB} MiB of random bytes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const rss = sampleRss(haul.pid);
  // 1. Upload through Haul, as the web app does: the hash declared (a proof asked and answered; the content is new, so
  // the bytes are sent), then tus in 16 MiB chunks. Then the same without a declared hash (another copy of the bytes,
  // so the blob is new again).
  t = performance.now();
  const hash = await contentHashOf(bytes);
  const clientHash = (performance.now() - t) / 1000;
  const haulUpload = async (name: string, declare: boolean) => {
    const cpu = cpuMeter(haul.pid, swift);
    const t0 = performance.now();
    const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size: String(BYTES), parent_id: '', ...(declare ? { hash } : {}) } as const;
    let created = await client.call('createFile', { body });
    if (created.proof_of_possession) {
      const { challenge, ranges } = created.proof_of_possession;
      created = await client.call('createFile', { body: { ...body, proof: { challenge, answer: await proofAnswer(bytes, ranges.map((r) => ({ start: Number(r.start), end: Number(r.end) }))) } } });
    }
    const stack = new TimingStack();
    await new Promise<void>((resolve, reject) => {
      new tus.Upload(bytes, {
        httpStack: stack,
        uploadUrl: created.resumable!.params.upload_url,
        headers: { authorization: `Bearer ${tokens.access_token}` },
        chunkSize: CHUNK,
        retryDelays: [],
        onSuccess: () => resolve(),
        onError: reject,
      }).start();
    });
    const handedOver = ((stack.lastBodyEnd || performance.now()) - t0) / 1000;
    let task = await client.call('getTask', { params: { id: created.task!.id } });
    while (task.phase !== 'PHASE_TYPE_COMPLETE') {
      if (task.phase === 'PHASE_TYPE_ERROR') throw new Error(`upload failed: ${task.message}`);
      await new Promise((r) => setTimeout(r, 50));
      task = await client.call('getTask', { params: { id: created.task!.id } });
    }
    return { seconds: (performance.now() - t0) / 1000, handedOver, cpu: cpu(), fileId: task.file_id! };
  };
  const declared = await haulUpload('random.bin', true);
  // Another drive's worth of the same bytes would be deduplicated: flip one byte so the undeclared upload is new too.
  bytes[0] ^= 0xff;
  const undeclared = await haulUpload('random-undeclared.bin', false);
  bytes[0] ^= 0xff;
  const haulUp = declared.seconds;

  // 2. The SDK's Upload of the same bytes straight to the same server.
  let cpu = cpuMeter(haul.pid, swift);
  t = performance.now();
  await new Upload({ client: sdk, params: { Bucket: refCfg.bucket, Key: 'random.bin', Body: bytes }, partSize: PART, queueSize: QUEUE }).done();
  const sdkUp = (performance.now() - t) / 1000;
  const sdkUpCpu = cpu();

  // 3. Download through Haul's content link (streams from the bucket through Haul), read to the end.
  const file = await client.call('getFile', { params: { id: declared.fileId }, query: { usage: 'FETCH' } });
  cpu = cpuMeter(haul.pid, swift);
  t = performance.now();
  const res = await new Promise<IncomingMessage>((resolve, reject) => httpGet(file.web_content_link!, resolve).once('error', reject));
  if (res.statusCode !== 200) throw new Error(`download answered ${res.statusCode}`);
  const got = await drain(res);
  const haulDown = (performance.now() - t) / 1000;
  const haulDownCpu = cpu();

  // 4. GetObject straight from the same server.
  cpu = cpuMeter(haul.pid, swift);
  t = performance.now();
  const obj = await sdk.send(new GetObjectCommand({ Bucket: refCfg.bucket, Key: 'random.bin' }));
  const ref = await drain(obj.Body as Readable);
  const sdkDown = (performance.now() - t) / 1000;
  const sdkDownCpu = cpu();
  const mem = rss.stop();

  const same = got.sha === sha && ref.sha === sha && got.n === BYTES && ref.n === BYTES;
  const mb = (n: number) => `${(n / MiB).toFixed(0)} MB`;
  console.log(`\nupload of ${BYTES / MiB} MiB to S3 (Swift s3api on loopback)`);
  const upLine = (label: string, u: typeof declared) =>
    console.log(`  ${label}: ${u.seconds.toFixed(2)} s ${mbps(BYTES, u.seconds)}   ${cpuText(u.cpu)}\n    last byte handed over at ${u.handedOver.toFixed(2)} s; after it (hash check, the blob made, file placed) ${(u.seconds - u.handedOver).toFixed(2)} s`);
  upLine(`Haul, hash declared (tus ${CHUNK / MiB} MiB chunks, creation to visible)`, declared);
  upLine('Haul, no hash declared (copied to its content key at the end)', undeclared);
  console.log(`    (the client's BLAKE3 of the file before creating the upload, not counted: ${clientHash.toFixed(2)} s)`);
  console.log(`  SDK lib-storage Upload (${PART / MiB} MiB parts, ${QUEUE} in flight):   ${sdkUp.toFixed(2)} s ${mbps(BYTES, sdkUp)}   ${cpuText(sdkUpCpu, false)}`);
  console.log(`  Haul/SDK: ${(sdkUp / haulUp).toFixed(2)} hash declared, ${(sdkUp / undeclared.seconds).toFixed(2)} without`);
  console.log(`download of the same bytes`);
  console.log(`  Haul GET /drive/v1/content/... (streamed from S3):  ${haulDown.toFixed(2)} s ${mbps(BYTES, haulDown)}   ${cpuText(haulDownCpu)}`);
  console.log(`  SDK GetObject:                                     ${sdkDown.toFixed(2)} s ${mbps(BYTES, sdkDown)}   ${cpuText(sdkDownCpu, false)}`);
  console.log(`  Haul/SDK: ${(sdkDown / haulDown).toFixed(2)}   bytes ${same ? 'identical (SHA-256) on both paths' : 'DIFFER'}`);
  console.log(`  Haul process RSS: ${mb(mem.before)} before, peak ${mb(mem.peak)} sampled${mem.hwm ? `, ${mb(mem.hwm)} VmHWM` : ''}`);
  console.log(loadLine());
  if (!same) process.exitCode = 1;
} finally {
  await cleanup.run();
}
