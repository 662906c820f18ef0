/**
 * Streaming BLAKE3 hashers with two engines behind one API (update/save/load/digest/close).
 *
 * - `wasm` (the default, as it can save its state): bytes are hashed by one shared worker thread
 *   (hash-thread.mjs, hash-wasm inside), as hash-wasm in line cost the event loop 1.3–1.75 s a GB (bench/README.md);
 *   the event loop only copies bytes into 1 MiB batches and posts them. update() never waits for the hash itself:
 *   its promise resolves at once until a few MiB are in flight, which bounds memory and slows a producer that
 *   outruns the thread.
 * - `native` (`{ engine: 'native' }`, where the binary loads): @napi-rs/blake-hash in line, ~0.2 s of event-loop
 *   CPU a GB, less than the copies and messages the thread would need. Its state cannot be saved: save() rejects,
 *   and load() moves the hasher onto the wasm engine, so a saved state always loads.
 */
import { Worker } from 'node:worker_threads';
import { createNativeBlake3, resolveEngine, type Blake3Engine, type NativeBlake3 } from './content-hash.js';

/** Bytes copied into one message to the thread. */
const BATCH = 1024 * 1024;
/** Posted but not yet hashed, per hasher, before update() makes its caller wait. */
const MAX_IN_FLIGHT = 4 * BATCH;
/** Batch buffers kept for reuse across hashers. */
const SPARE_BUFFERS = 8;
const READY = Promise.resolve();
/** Options that make a hasher with no engine yet, for ofDigest() and handOver() to fill in. */
const BARE: { engine: 'native' } = { engine: 'native' };

interface Reply {
  seq: number;
  error?: string;
  buf?: ArrayBuffer;
  state?: Uint8Array;
  hex?: string;
}
type Done = (err: Error | null, reply?: Reply) => void;

/** The one hashing thread of the process; replaced by a new one if it dies. */
class HashThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Done>();
  private readonly spare: ArrayBuffer[] = [];
  private seq = 0;
  private ids = 0;
  /** Hashers created and not yet closed. */
  private openHashers = 0;
  private stopping = false;
  dead: Error | null = null;

  constructor() {
    // No tsx or other loader needed in the thread: it is plain JavaScript.
    this.worker = new Worker(new URL('./hash-thread.mjs', import.meta.url), { execArgv: [] });
    // Only held while a reply is awaited, so an idle thread never keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (m: Reply) => this.settle(m));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`The hashing thread stopped (exit code ${code}).`)));
  }

  acquire(): number {
    this.openHashers++;
    return ++this.ids;
  }

  release(id: number): void {
    this.openHashers--;
    this.post({ op: 'free', id });
    if (this.stopping && this.openHashers === 0) void this.worker.terminate();
  }

  /** Sends a message whose reply goes to `done`. */
  call(msg: Record<string, unknown>, transfer: ArrayBuffer[], done: Done): void {
    if (this.dead) return done(this.dead);
    const seq = ++this.seq;
    if (this.waiting.size === 0) this.worker.ref();
    this.waiting.set(seq, done);
    this.worker.postMessage({ ...msg, seq }, transfer);
  }

  /** call() as a promise. */
  request(msg: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<Reply> {
    return new Promise((resolve, reject) => this.call(msg, transfer, (err, reply) => (err ? reject(err) : resolve(reply!))));
  }

  post(msg: Record<string, unknown>): void {
    if (!this.dead) this.worker.postMessage(msg);
  }

  takeBuffer(): ArrayBuffer {
    return this.spare.pop() ?? new ArrayBuffer(BATCH);
  }

  giveBuffer(buf: ArrayBuffer): void {
    if (buf.byteLength === BATCH && this.spare.length < SPARE_BUFFERS) this.spare.push(buf);
  }

  /** Terminates now when no hasher is open, else once the last one closes. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.openHashers === 0) await this.worker.terminate();
  }

  private settle(m: Reply): void {
    const done = this.waiting.get(m.seq);
    if (!done) return;
    this.waiting.delete(m.seq);
    if (this.waiting.size === 0) this.worker.unref();
    if (m.error !== undefined) done(new Error(m.error), m);
    else done(null, m);
  }

  private fail(err: Error): void {
    this.dead ??= err;
    if (shared === this) shared = null;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const done of waiting) done(this.dead);
  }
}

let shared: HashThread | null = null;

function hashThread(): HashThread {
  shared ??= new HashThread();
  return shared;
}

/** Stops the shared hashing thread (the server's close()); one still hashing stops when its last hasher closes. */
export async function stopHashThread(): Promise<void> {
  const thread = shared;
  shared = null;
  await thread?.stop();
}

/** Reclaims the thread-side state of a hasher that was dropped without close(). */
const unclosed = new FinalizationRegistry<{ thread: HashThread; id: number }>(({ thread, id }) => thread.release(id));

/** Options of a new hasher. */
export interface ThreadedHasherOptions {
  /** `native` where it loads (falls back to `wasm`), for hashers whose state is never saved; default `wasm`. */
  engine?: Blake3Engine;
}

/** A streaming BLAKE3 hasher (see the engines above). Close it when done, finished or not. */
export class ThreadedHasher {
  /** The native hasher, while the native engine runs this one. */
  private native: NativeBlake3 | null = null;
  /** The thread and this hasher's id there, while the wasm engine runs it. */
  private wasm: { thread: HashThread; id: number } | null = null;
  /** Set on a hasher that stands for bytes it never saw, known only by their digest (see ofDigest). */
  private known: string | null = null;
  private batch: Uint8Array | null = null;
  private filled = 0;
  private inFlight = 0;
  private drainWaiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private failed: Error | null = null;
  /** digest() was called: more bytes need init() or load() first. */
  private finished = false;
  private closed = false;

  /** A hasher ready for bytes (started fresh). */
  constructor(opts: ThreadedHasherOptions = {}) {
    if (opts === BARE) return;
    if (resolveEngine(opts.engine ?? 'wasm') === 'native') {
      this.native = createNativeBlake3();
      return;
    }
    this.wasm = ThreadedHasher.attach(this);
    void this.init().catch(() => undefined);
  }

  /** A hasher standing for bytes known only by their digest: it gives that digest and takes no more bytes. */
  static ofDigest(hex: string): ThreadedHasher {
    const h = new ThreadedHasher(BARE);
    h.known = hex;
    return h;
  }

  /** The engine hashing now (a native hasher moves to wasm when it loads a saved state). */
  get engine(): Blake3Engine {
    return this.wasm ? 'wasm' : 'native';
  }

  /** Whether save() can give a state (only the wasm engine can). */
  get canSave(): boolean {
    return this.wasm !== null;
  }

  /** The digest of the bytes so far without finishing, where that is free (native engine); else null. */
  digestSoFar(): string | null {
    this.usable();
    return this.known ?? this.native?.digest('hex') ?? null;
  }

  /** Starts over from no bytes. */
  async init(): Promise<void> {
    this.live();
    this.dropBatch();
    this.failed = null;
    this.finished = false;
    if (!this.wasm) {
      this.native = createNativeBlake3();
      this.known = null;
    } else await this.wasm!.thread.request({ op: 'init', id: this.wasm!.id });
  }

  /** Queues bytes to hash (copied, or hashed at once, so the caller may reuse `chunk`); wait on the promise to respect backpressure. */
  update(chunk: Uint8Array): Promise<void> {
    try {
      this.usable();
      if (this.finished) throw new Error('This hasher has given its digest: init() or load() before more bytes.');
    } catch (err) {
      return Promise.reject(err);
    }
    if (!this.wasm) {
      if (this.known !== null && chunk.length > 0) return Promise.reject(new Error('This hasher only knows the digest of its bytes: it cannot take more.'));
      this.native?.update(chunk);
      return READY;
    }
    const { thread } = this.wasm!;
    for (let at = 0; at < chunk.length; ) {
      this.batch ??= new Uint8Array(thread.takeBuffer());
      const n = Math.min(chunk.length - at, BATCH - this.filled);
      this.batch.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === BATCH) this.flush();
    }
    if (this.inFlight < MAX_IN_FLIGHT) return READY;
    return new Promise((resolve, reject) => this.drainWaiters.push({ resolve, reject }));
  }

  /** The hex BLAKE3 of every byte given since init() or load(); after it, only init() or load() go on. */
  async digest(): Promise<string> {
    this.usable();
    this.finished = true;
    if (!this.wasm) return this.known ?? this.native!.digest('hex');
    this.flush();
    return (await this.wasm!.thread.request({ op: 'digest', id: this.wasm!.id })).hex!;
  }

  /** The hasher's state, to load() later (here or in another process running the same hash-wasm); wasm engine only. */
  async save(): Promise<Uint8Array> {
    this.usable();
    if (!this.wasm) throw new Error('A hasher on the native BLAKE3 cannot save its state: create it with the wasm engine to save.');
    this.flush();
    return (await this.wasm!.thread.request({ op: 'save', id: this.wasm!.id })).state!;
  }

  /** Continues from a saved state (on the wasm engine); a state that does not fit rejects and leaves the hasher as it was. */
  async load(state: Uint8Array): Promise<void> {
    this.live();
    const copy = new Uint8Array(state);
    if (!this.wasm) {
      const wasm = ThreadedHasher.attach(this);
      try {
        await wasm.thread.request({ op: 'load', id: wasm.id, state: copy }, [copy.buffer]);
      } catch (err) {
        ThreadedHasher.detach(this, wasm);
        throw err;
      }
      this.native = null;
      this.known = null;
      this.wasm = wasm;
    } else {
      this.flush();
      await this.wasm!.thread.request({ op: 'load', id: this.wasm!.id, state: copy }, [copy.buffer]);
    }
    this.failed = null;
    this.finished = false;
  }

  /**
   * A new hasher that goes on from exactly where this one is, which is closed by it (nothing re-hashed): how a
   * native hasher, whose state cannot be saved, is kept for a later request in the same process.
   */
  async handOver(): Promise<ThreadedHasher> {
    this.usable();
    if (this.finished) throw new Error('This hasher has given its digest: nothing to hand over.');
    if (this.known !== null) {
      this.close();
      return ThreadedHasher.ofDigest(this.known);
    }
    if (this.wasm) {
      const next = new ThreadedHasher({ engine: 'wasm' });
      await next.load(await this.save());
      this.close();
      return next;
    }
    const next = new ThreadedHasher(BARE);
    next.native = this.native;
    this.native = null;
    this.close();
    return next;
  }

  /** Frees the engine's state; bytes still queued are dropped. Safe to call more than once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.native = null;
    this.dropBatch();
    if (this.wasm) ThreadedHasher.detach(this, this.wasm);
  }

  /** Takes an id on the shared thread for `owner`, given back when it closes (or is dropped unclosed). */
  private static attach(owner: ThreadedHasher): { thread: HashThread; id: number } {
    const thread = hashThread();
    const id = thread.acquire();
    unclosed.register(owner, { thread, id }, owner);
    return { thread, id };
  }

  private static detach(owner: ThreadedHasher, wasm: { thread: HashThread; id: number }): void {
    unclosed.unregister(owner);
    wasm.thread.release(wasm.id);
  }

  /** Throws unless the hasher is open on a live engine. */
  private live(): void {
    if (this.closed) throw new Error('This hasher is closed.');
    if (this.wasm?.thread.dead) throw this.wasm.thread.dead;
  }

  /** Throws unless live() holds and every batch so far was hashed. */
  private usable(): void {
    this.live();
    if (this.failed) throw this.failed;
  }

  private dropBatch(): void {
    if (this.batch) this.wasm!.thread.giveBuffer(this.batch.buffer as ArrayBuffer);
    this.batch = null;
    this.filled = 0;
  }

  private flush(): void {
    if (!this.filled) return;
    const { thread, id } = this.wasm!;
    const buf = this.batch!.buffer as ArrayBuffer;
    const length = this.filled;
    this.batch = null;
    this.filled = 0;
    this.inFlight += length;
    thread.call({ op: 'update', id, buf, length }, [buf], (err, reply) => {
      this.inFlight -= length;
      if (reply?.buf) thread.giveBuffer(reply.buf);
      if (err) this.failed ??= err;
      if (this.inFlight >= MAX_IN_FLIGHT && !this.failed) return;
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) {
        if (this.failed) w.reject(this.failed);
        else w.resolve();
      }
    });
  }
}
