import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBLAKE3 } from 'hash-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetHasher, resumeHasher, saveHasher } from './resumable-hash.js';
import { stopHashThread, ThreadedHasher } from './threaded-hasher.js';

async function inProcess(...parts: Uint8Array[]): Promise<string> {
  const h = await createBLAKE3();
  h.init();
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/** Feeds `data` in chunks of the given sizes, round and round, waiting as update() asks. */
async function feed(sut: ThreadedHasher, data: Uint8Array, sizes: number[]): Promise<void> {
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    await sut.update(data.subarray(at, at + n));
    at += n;
  }
}

describe(ThreadedHasher.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'haul-hasher-'));
  afterAll(async () => {
    await stopHashThread();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the BLAKE3 of hash-wasm in-process for bytes fed in odd-sized chunks', async () => {
    const empty = new ThreadedHasher();
    expect(await empty.digest()).toBe('af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    empty.close();

    // Across several 1 MiB batches and past the in-flight limit, with chunks that straddle batch edges.
    const data = randomBytes(9 * 1024 * 1024 + 12_345);
    const sut = new ThreadedHasher();
    await feed(sut, data, [1, 7, 65_537, 1_500_001, 3, 3 * 1024 * 1024 + 5]);
    expect(await sut.digest()).toBe(await inProcess(data));
    await expect(sut.update(Buffer.from('more'))).rejects.toThrow(/digest/);

    // init() starts over.
    await sut.init();
    await feed(sut, data.subarray(0, 100_003), [999]);
    expect(await sut.digest()).toBe(await inProcess(data.subarray(0, 100_003)));
    sut.close();
  });

  it('copies each chunk, so the caller may reuse its buffer at once', async () => {
    const sut = new ThreadedHasher();
    const scratch = Buffer.alloc(4096);
    const parts: Buffer[] = [];
    for (let i = 0; i < 300; i++) {
      scratch.fill(i % 251);
      parts.push(Buffer.from(scratch));
      await sut.update(scratch);
    }
    expect(await sut.digest()).toBe(await inProcess(...parts));
    sut.close();
  });

  it('saves its state and another hasher goes on from it', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 77);
    const cut = 1024 * 1024 + 31;
    const first = new ThreadedHasher();
    await feed(first, data.subarray(0, cut), [4099]);
    const state = await first.save();
    first.close();

    const second = new ThreadedHasher();
    await feed(second, randomBytes(5000), [5000]); // overwritten by load()
    await second.load(state);
    await feed(second, data.subarray(cut), [65_536]);
    expect(await second.digest()).toBe(await inProcess(data));
    second.close();

    // hash-wasm in-process reads the same state: it is the format saved beside uploads.
    const h = await createBLAKE3();
    h.load(state);
    h.update(data.subarray(cut));
    expect(h.digest('hex')).toBe(await inProcess(data));
  });

  it('refuses a state that does not fit and stays as it was', async () => {
    const sut = new ThreadedHasher();
    await sut.update(Buffer.from('kept'));
    await expect(sut.load(Buffer.from('not a hasher state'))).rejects.toThrow(/state/i);
    await sut.update(Buffer.from(' bytes'));
    expect(await sut.digest()).toBe(await inProcess(Buffer.from('kept bytes')));
    sut.close();
  });

  it('keeps concurrent hashers apart', async () => {
    const a = randomBytes(5 * 1024 * 1024 + 1);
    const b = randomBytes(4 * 1024 * 1024 + 999);
    const ha = new ThreadedHasher();
    const hb = new ThreadedHasher();
    // Interleaved chunk by chunk, so the thread switches between the two all the time.
    await Promise.all([feed(ha, a, [300_001, 17]), feed(hb, b, [65_536, 777_777])]);
    const [da, db] = await Promise.all([ha.digest(), hb.digest()]);
    expect(da).toBe(await inProcess(a));
    expect(db).toBe(await inProcess(b));
    ha.close();
    hb.close();
  });

  it('survives a hasher whose stream fails half-way, and refuses bytes once closed', async () => {
    const sut = new ThreadedHasher();
    async function* failing() {
      yield randomBytes(3 * 1024 * 1024);
      throw new Error('connection reset');
    }
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        sut.update(chunk).then(() => cb(null, chunk), cb);
      },
    });
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    try {
      await expect(pipeline(Readable.from(failing()), tap, sink)).rejects.toThrow('connection reset');
    } finally {
      sut.close();
    }
    await expect(sut.update(Buffer.from('late'))).rejects.toThrow(/closed/);
    await expect(sut.digest()).rejects.toThrow(/closed/);

    // A hasher closed with bytes still queued does not disturb the next ones.
    const dropped = new ThreadedHasher();
    void dropped.update(randomBytes(2 * 1024 * 1024 + 5));
    dropped.close();
    const data = randomBytes(2 * 1024 * 1024 + 3);
    const next = new ThreadedHasher();
    await feed(next, data, [100_000]);
    expect(await next.digest()).toBe(await inProcess(data));
    next.close();
  });

  it('never keeps a process alive once its hashing is done', async () => {
    const script = join(dir, 'hash-and-exit.mts');
    writeFileSync(
      script,
      `import { ThreadedHasher } from ${JSON.stringify(new URL('./threaded-hasher.ts', import.meta.url).pathname)};\n` +
        `const h = new ThreadedHasher();\nawait h.update(Buffer.from('exit'));\nconsole.log(await h.digest());\n`,
    );
    // Neither closed nor stopped: the process must still end by itself.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { cwd: import.meta.dirname, timeout: 20_000 });
    expect(stdout.trim()).toBe(await inProcess(Buffer.from('exit')));
  });

  it('starts a new thread after stopHashThread()', async () => {
    await stopHashThread();
    const sut = new ThreadedHasher();
    await sut.update(Buffer.from('after a stop'));
    expect(await sut.digest()).toBe(await inProcess(Buffer.from('after a stop')));
    sut.close();
  });

  it.each(['native', 'wasm'] as const)('resumes a file from its saved state (%s), reading from disk only the bytes past it', async (engine) => {
    const data = randomBytes(2 * 1024 * 1024 + 501);
    const path = join(dir, `upload-${engine}`);
    const statePath = join(dir, `upload-${engine}.b3`);
    writeFileSync(path, data.subarray(0, 700_000));
    const h1 = await resumeHasher(path, statePath, 700_000, { engine });
    expect(h1.engine).toBe(engine);
    await saveHasher(statePath, h1, 700_000);
    h1.close();

    // The state stands for the first 700,000 bytes whatever the file holds there now: only the rest is read.
    writeFileSync(path, Buffer.concat([Buffer.alloc(700_000), data.subarray(700_000)]));
    const h2 = await resumeHasher(path, statePath, data.length);
    expect(await h2.digest()).toBe(await inProcess(data));
    h2.close();

    // A state past the bytes wanted is ignored, and everything is read from disk.
    writeFileSync(path, data);
    const h3 = await resumeHasher(path, statePath, 500_000, { engine });
    expect(await h3.digest()).toBe(await inProcess(data.subarray(0, 500_000)));
    h3.close();
    await forgetHasher(statePath);
  });

  describe('on the native engine', () => {
    it('gives the digests of hash-wasm, and goes on after a digest only from init()', async () => {
      const data = randomBytes(5 * 1024 * 1024 + 3);
      const sut = new ThreadedHasher({ engine: 'native' });
      expect(sut.engine).toBe('native');
      expect(await sut.digest()).toBe(await inProcess(new Uint8Array()));
      await expect(sut.update(Buffer.from('more'))).rejects.toThrow(/digest/);
      await sut.init();
      await feed(sut, data, [1, 1023, 1025, 65_535, 65_537, 1024 * 1024 + 1]);
      expect(await sut.digest()).toBe(await inProcess(data));
      sut.close();
      await expect(sut.update(Buffer.from('late'))).rejects.toThrow(/closed/);
    });

    it('cannot save, but loads a hash-wasm state and goes on from it on hash-wasm', async () => {
      const data = randomBytes(2 * 1024 * 1024 + 9);
      const cut = 1024 * 1024 + 1;
      const sut = new ThreadedHasher({ engine: 'native' });
      await sut.update(data.subarray(0, 10));
      expect(sut.canSave).toBe(false);
      await expect(sut.save()).rejects.toThrow(/native/);
      // A state that does not fit leaves it on the native engine, with its bytes.
      await expect(sut.load(Buffer.from('not a hasher state'))).rejects.toThrow(/state/i);
      expect(sut.engine).toBe('native');

      const first = new ThreadedHasher();
      await feed(first, data.subarray(0, cut), [4099]);
      const state = await first.save();
      first.close();
      await sut.load(state);
      expect(sut.engine).toBe('wasm');
      await feed(sut, data.subarray(cut), [65_536]);
      expect(await sut.digest()).toBe(await inProcess(data));
      sut.close();
    });

    it('hands its progress over to a new hasher', async () => {
      const data = randomBytes(300_001);
      const sut = new ThreadedHasher({ engine: 'native' });
      await sut.update(data.subarray(0, 100_000));
      const next = await sut.handOver();
      await expect(sut.update(Buffer.from('x'))).rejects.toThrow(/closed/);
      sut.close();
      await next.update(data.subarray(100_000));
      expect(await next.digest()).toBe(await inProcess(data));
      next.close();
    });
  });

  it('resumes across engines: a saved hash-wasm state, and a native one this process no longer holds', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 11);
    const path = join(dir, 'switch');
    const statePath = join(dir, 'switch.b3');
    writeFileSync(path, data);

    // A state saved by hash-wasm (an older server, or the fallback) goes on on hash-wasm from its offset.
    const w = await resumeHasher(path, statePath, 1_000_000, { engine: 'wasm' });
    await saveHasher(statePath, w, 1_000_000);
    w.close();
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).toMatchObject({ offset: 1_000_000, state: expect.any(String) });
    const resumed = await resumeHasher(path, statePath, 2_000_000);
    expect(resumed.engine).toBe('wasm');
    await saveHasher(statePath, resumed, 2_000_000);
    resumed.close();
    const done = await resumeHasher(path, statePath, data.length);
    expect(await done.digest()).toBe(await inProcess(data));
    done.close();

    // A native hasher parked by another process (or evicted) is not here: the file is read again from its start.
    const n = await resumeHasher(path, statePath, 1_500_000, { engine: 'native' });
    await saveHasher(statePath, n, 1_500_000);
    n.close();
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as { offset: number; parked?: string; state?: string };
    expect(saved).toMatchObject({ offset: 1_500_000, parked: expect.any(String) });
    expect(saved.state).toBeUndefined();
    writeFileSync(statePath, JSON.stringify({ offset: 1_500_000, parked: 'held-by-another-process' }));
    const reread = await resumeHasher(path, statePath, data.length);
    expect(reread.engine).toBe('native');
    expect(await reread.digest()).toBe(await inProcess(data));
    reread.close();

    // Bytes that only need their digest (the finishing request, a repeated last PATCH) need neither the parked hasher
    // nor the bytes, which may be moved away already.
    const whole = await resumeHasher(path, statePath, data.length);
    await saveHasher(statePath, whole, data.length);
    whole.close();
    writeFileSync(statePath, JSON.stringify({ ...JSON.parse(readFileSync(statePath, 'utf8')), parked: 'held-by-another-process' }));
    rmSync(path);
    const known = await resumeHasher(path, statePath, data.length);
    await known.update(new Uint8Array(0));
    await expect(known.update(Buffer.from('x'))).rejects.toThrow(/only knows the digest/);
    await saveHasher(statePath, known, data.length);
    known.close();
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).toMatchObject({ offset: data.length, digest: await inProcess(data) });
    const finishing = await resumeHasher(path, statePath, data.length);
    expect(await finishing.digest()).toBe(await inProcess(data));
    finishing.close();
    writeFileSync(path, data);

    // A write after a restart (the parked hasher gone, only the digest known) must go on hashing: it is rebuilt from
    // the bytes on disk, never handed the digest alone (a PATCH after a kill -9 would fail on its first byte).
    const more = Buffer.from('bytes of the next PATCH');
    const writing = await resumeHasher(path, statePath, data.length, { adding: true });
    await writing.update(more);
    expect(await writing.digest()).toBe(await inProcess(Buffer.concat([data, more])));
    writing.close();

    // The fallback process reads a native state file the same way: from the start, on hash-wasm.
    const fallback = await resumeHasher(path, statePath, data.length, { engine: 'wasm' });
    expect(await fallback.digest()).toBe(await inProcess(data));
    fallback.close();
    await forgetHasher(statePath);
  });
});
