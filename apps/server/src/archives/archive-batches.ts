/**
 * Runs 7zz for an unpacking task's entries: small entries in batches (one run writes many, one after the other in the
 * archive's order, into one staged file that is then cut at their declared sizes), anything else one run each. A run
 * per entry costs ~35 ms of process start-up, which held the single worker for minutes on an archive of many small
 * files. A batch keeps the guards of a single run: 7zz still writes only the one file Haul opened, and the kernel holds
 * it to the batch's declared total; the file must be that total exactly, or the batch runs again one entry at a time,
 * where each entry is held to its own declared size and a lying one fails the task with its name.
 */
import { rm, truncate } from 'node:fs/promises';
import type { ArchiveSource } from './archive-reader.js';
import type { JobEntry } from './archive-placement.js';
import { stageEntry, type StagedRun } from './archive-staging.js';
import { listFileSafe } from './entry-names.js';
import { SevenZipError, type RunOptions } from './seven-zip.js';

/** Ends a task: a reason the person can read, for a failure that is no bug. */
export class StopTask extends Error {}

/** Entries this large run alone: cutting them out of a batch would copy them once more. */
const BATCH_ENTRY_BYTES = 1024 * 1024;
/** A batch's bounds: its staged file (64 MiB at most) and its list file stay small, and a task saves progress between batches. */
const BATCH_BYTES = 64 * 1024 * 1024;
const BATCH_ENTRIES = 200;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;

/** An entry still to unpack: its index in the job, and its key among entries unpacked before (none if encrypted). */
export interface Todo {
  i: number;
  e: JobEntry;
  memo?: string;
}

/** What a run left in staging: one entry's file, or a batch's file holding its entries back to back. */
export type Staged = { one: Todo; path: string } | { batch: Todo[]; path: string };

/**
 * Whether an entry can share a run: small, asked for by its exact name (not a pattern of an old task), stored once,
 * and a name a list file can carry (no line breaks or other control characters, no quote with spaces at its ends).
 */
export function batchable(e: JobEntry): boolean {
  if (e.d || e.w || e.c || e.s > BATCH_ENTRY_BYTES) return false;
  const raw = e.x ? Buffer.from(e.p, 'hex') : Buffer.from(e.p, 'utf8');
  return listFileSafe(raw) && !CONTROL.test(raw.toString('latin1'));
}

/** The todo list in runs: consecutive batchable entries of one kind of name together, anything else alone. */
export function* batches(todo: Todo[]): Generator<Todo[]> {
  let cur: Todo[] = [];
  let bytes = 0;
  for (const t of todo) {
    const join = batchable(t.e);
    if (cur.length && (!join || cur.length >= BATCH_ENTRIES || bytes + t.e.s > BATCH_BYTES || (cur[0]!.e.x ?? 0) !== (t.e.x ?? 0))) {
      yield cur;
      cur = [];
      bytes = 0;
    }
    if (!join) yield [t];
    else {
      cur.push(t);
      bytes += t.e.s;
    }
  }
  if (cur.length) yield cur;
}

/** What the runs share: the task's staging folder, the archive, 7zz's options, and the worker's view of the task. */
export interface RunEnv {
  dir: string;
  src: ArchiveSource;
  opts: Omit<RunOptions, 'input' | 'timeoutMs'>;
  /** The run being written now (progress reads its size, a task going away kills it). */
  track(run: StagedRun | null): void;
  /** The task was deleted: a run killed for that is no failure. */
  gone(): boolean;
}

const timeoutFor = (bytes: number) => 60_000 + Math.ceil(bytes / 2_000);
const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);

/** One run into a new staged file held to `limit` bytes: its path and size, or null when the task went away. */
async function stage(env: RunEnv, selectors: string[], rawName: boolean, wildcards: boolean, limit: number): Promise<{ path: string; size: number } | null> {
  const run = await stageEntry(env.dir, env.src, selectors, { ...env.opts, wildcards, timeoutMs: timeoutFor(limit) }, rawName, limit);
  env.track(run);
  try {
    await run.done;
  } catch (err) {
    await rm(run.path, { force: true });
    if (env.gone()) return null;
    throw err;
  } finally {
    env.track(null);
  }
  return { path: run.path, size: await run.written() };
}

/** Runs one batch (or one entry); what it staged, or null when the task went away. */
export async function runBatch(env: RunEnv, todo: Todo[]): Promise<Staged[] | null> {
  if (todo.length === 1) {
    const path = await runOne(env, todo[0]!);
    return path === null ? null : [{ one: todo[0]!, path }];
  }
  const limit = sum(todo.map((t) => t.e.s));
  const got = await stage(env, todo.map((t) => t.e.p), todo[0]!.e.x === 1, false, limit).catch((err: unknown) => {
    // Past the total: some entry is larger than it says; found below, one at a time.
    if (err instanceof SevenZipError && err.kind === 'too_large') return 'again' as const;
    throw err;
  });
  if (got === null) return null;
  if (got !== 'again' && got.size === limit) return [{ batch: todo, path: got.path }];
  // Short (a name 7zz cannot be asked for as listed, or an entry smaller than it says): each on its own.
  if (got !== 'again') await rm(got.path, { force: true });
  const out: Staged[] = [];
  for (const t of todo) {
    const path = await runOne(env, t);
    if (path === null) return null;
    out.push({ one: t, path });
  }
  return out;
}

/**
 * One entry in a run of its own, held to its declared size (to all its copies' when its stored path repeats, the first
 * copy then kept). 7zz lists a line break in a name as `_` and finds nothing under that name: such an entry is asked
 * for again with `?` in place of each `_`, and must then come out at exactly its size too.
 */
async function runOne(env: RunEnv, t: Todo): Promise<string | null> {
  const { e } = t;
  const limit = e.c ? sum(e.c) : e.s;
  let got = await stage(env, [e.p], e.x === 1, e.w === 1, limit).catch((err: unknown) => Promise.reject(entryError(err, e)));
  if (got && got.size === 0 && limit > 0 && !e.x && !e.w && e.p.includes('_') && !/[*?]/.test(e.p)) {
    await rm(got.path, { force: true });
    got = await stage(env, [e.p.replace(/_/g, '?')], false, true, limit).catch((err: unknown) => Promise.reject(entryError(err, e)));
  }
  if (!got) return null;
  if (got.size !== limit) {
    await rm(got.path, { force: true });
    throw new StopTask(`"${e.t.join('/')}" is not the size the archive says: it may be damaged.`);
  }
  if (e.c) await truncate(got.path, e.s);
  return got.path;
}

/** 7zz stopped at an entry's declared size: the archive's header lied about it. */
function entryError(err: unknown, e: JobEntry): unknown {
  if (err instanceof SevenZipError && err.kind === 'too_large') return new StopTask(`"${e.t.join('/')}" is larger than the archive says: unpacking stopped.`);
  return err;
}
