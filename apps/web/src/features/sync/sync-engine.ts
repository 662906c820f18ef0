/**
 * Keeps the local database in step with the server (seed 000 §4 "Sync of files"): folder syncs when a folder is
 * opened, a full sync of the drive, and incremental syncs of what changed since the last one.
 */
import { PHASE } from '@haul/shared/plain';
import type { DriveFile, FileList } from '@haul/shared';
import { isApiError } from '../../lib/api-error';
import { LIVE_FILTERS, type Filters, type ListParams } from '../files/files-api';
import type { LocalFile } from './stored-row';
import { deleteStale, deleteStaleDrive, writeLocalPage, type LocalSlice } from './local-files';
import { localDb, localDbOpened } from './local-db';
import { useSyncStatus } from './sync-status';

export const SYNC = {
  pageSize: 500,
  retries: 10,
  retryDelayMs: 2000,
  /** The root answering empty the first time is asked once more after this (a drive just made may not list yet). */
  emptyRootRetryMs: 500,
  incrementalThrottleMs: 1000,
  forcedLookBackMs: 10 * 60_000,
  /** Decision: a sync period is an hour; a full sync runs when the last one is older than three. */
  periodMs: 60 * 60_000,
} as const;

export interface SyncDeps {
  list: (p: ListParams, signal?: AbortSignal) => Promise<FileList>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /**
   * The local database the marks describe: whether this page has it open, and opening it (which forgets the marks
   * when it has to create it). Marks are read only once it is open (local-db.ts).
   */
  localCopy?: { opened: () => boolean; open: () => Promise<unknown> };
}

interface Marks {
  /** Folders loaded whole once: incremental syncs keep them current from then on. */
  folders?: Record<string, true>;
  /** sync_time of the last incremental or full sync: the next incremental asks for changes after it. */
  since?: string;
  fullAt?: number;
  /** Where an unfinished full sync carries on: the page after the last one stored, its stamp and its first sync_time. */
  fullCursor?: FullCursor;
}

interface FullCursor {
  token: string;
  stamp: number;
  since: string;
}

/** Errors after which retrying cannot help. */
const isFinal = (e: unknown) =>
  (e as Error)?.name === 'AbortError' ||
  isApiError(e, 'unauthenticated') ||
  isApiError(e, 'file_not_found') ||
  isApiError(e, 'invalid_argument');

/** The root folder's parent id. */
const ROOT = '';
const isEmpty = (res: FileList) => res.files.length === 0 && !res.next_page_token;

const isGone = (f: DriveFile) => f.trashed || f.params?.deleted === 'true' || f.phase !== PHASE.COMPLETE;

export class SyncEngine {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly storage: Pick<Storage, 'getItem' | 'setItem'>;
  private readonly local: NonNullable<SyncDeps['localCopy']>;
  private incrementalRun: Promise<void> | null = null;
  private followUp: Promise<void> | null = null;
  private lastIncrementalAt = 0;
  private fullRun: Promise<void> | null = null;
  /** Settles when the folder being opened has its first page on screen (or its sync ended): the full sync waits. */
  private opening: Promise<void> = Promise.resolve();

  constructor(
    readonly userId: string,
    private readonly deps: SyncDeps,
  ) {
    this.sleep = deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = deps.now ?? Date.now;
    this.storage = deps.storage ?? localStorage;
    this.local = deps.localCopy ?? { opened: localDbOpened, open: localDb };
  }

  /** Runs `then` once the local database is open, so the marks it reads describe rows that are there. */
  private whenOpen(then: () => Promise<void>): Promise<void> {
    return this.local.opened() ? then() : this.local.open().then(then);
  }

  private get marksKey() {
    return `haul.sync.${this.userId}`;
  }
  private readMarks(): Marks {
    try {
      return JSON.parse(this.storage.getItem(this.marksKey) ?? '{}') as Marks;
    } catch {
      return {};
    }
  }
  private writeMarks(m: Marks) {
    this.storage.setItem(this.marksKey, JSON.stringify({ ...this.readMarks(), ...m }));
  }

  /** One page, retried on passing failures (10 times, 2 s apart); stops at once on final ones. */
  private async page(p: ListParams, signal?: AbortSignal): Promise<FileList> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.deps.list(p, signal);
      } catch (err) {
        if (isFinal(err) || attempt >= SYNC.retries || signal?.aborted) throw err;
        await this.sleep(SYNC.retryDelayMs);
      }
    }
  }

  /**
   * Pages through a listing to its end from `from`; returns the first page's sync_time. The next page is fetched
   * while the last one is stored, and at most two pages are being stored at once. `write` gets the pages in order;
   * `stored` then hears, in order, the token of the page after each one stored, and never after a page that failed
   * (a later page may be written meanwhile: writes are by id, so storing it again later duplicates nothing). A root
   * folder whose first page comes back empty is asked once more after 500 ms before its local rows are taken as stale.
   */
  private async walk(
    p: Omit<ListParams, 'pageToken'>,
    write: (files: DriveFile[], syncTime: string) => Promise<void>,
    signal?: AbortSignal,
    from = '',
    stored: (next: string) => void = () => undefined,
  ) {
    const ask = (pageToken: string) => this.page({ ...p, limit: SYNC.pageSize, pageToken }, signal);
    let res = await ask(from);
    if (p.parentId === ROOT && !from && isEmpty(res) && !signal?.aborted) {
      await this.sleep(SYNC.emptyRootRetryMs);
      res = await ask(from);
    }
    const syncTime = res.sync_time;
    let done: Promise<void> = Promise.resolve();
    for (;;) {
      const token = res.next_page_token;
      const next = token && !signal?.aborted ? ask(token) : null;
      // Awaited below; a failed write before it would otherwise leave its rejection unhandled.
      next?.catch(() => undefined);
      const writing = write(res.files, res.sync_time);
      writing.catch(() => undefined); // reported through `done`
      const before = done;
      done = before.then(() => writing).then(() => stored(token));
      done.catch(() => undefined);
      await before;
      if (!next) break;
      try {
        res = await next;
      } catch (err) {
        // Let the pages in flight land first, so an interrupted sync carries on after them.
        await done.catch(() => undefined);
        throw err;
      }
    }
    await done;
    return syncTime;
  }

  /**
   * Writes one page: live rows and (in an incremental sync) removals. Rows are stamped with the time they are written,
   * not with their sync's start: two syncs overlap (a folder's and the whole drive's), and a page of the one that
   * started first, landing after the other wrote the same rows, must not make them look older than the other sync
   * (its end would take them for stale and delete them).
   */
  private store(files: DriveFile[], removeGone = false): Promise<void> {
    const stamp = this.now();
    const rows: LocalFile[] = [];
    const gone: string[] = [];
    for (const f of files) {
      if (!isGone(f)) rows.push({ ...f, local_sync_timestamp: stamp });
      else if (removeGone) gone.push(f.id);
    }
    return writeLocalPage(rows, gone);
  }

  private tracked<T>(work: () => Promise<T>): Promise<T> {
    useSyncStatus.getState().begin();
    return work().finally(() => useSyncStatus.getState().end());
  }

  /** Loads a slice of the drive and drops local rows of that slice the server no longer lists. */
  private syncSlice(parentId: string, filters: Filters, slice: LocalSlice, signal?: AbortSignal) {
    return this.tracked(async () => {
      const stamp = this.now();
      let shown = () => undefined as void;
      this.opening = new Promise<void>((resolve) => (shown = resolve));
      const walking = this.walk(
        { parentId, filters },
        (files) => {
          const writing = this.store(files); // announces the page at once
          shown();
          return writing;
        },
        signal,
      );
      await walking.finally(shown);
      if (signal?.aborted) return;
      await deleteStale(this.userId, slice, stamp);
      if (parentId !== '*') this.writeMarks({ folders: { ...this.readMarks().folders, [parentId]: true } });
    });
  }

  /**
   * Whether the local copy of a folder is whole: loaded once, or the whole drive was. Not before this page has opened
   * the database: the marks may describe a copy the browser has dropped since (the folder is then fetched).
   */
  hasFolder(parentId: string): boolean {
    if (!this.local.opened()) return false;
    const m = this.readMarks();
    return !!m.since && (!!m.fullAt || !!m.folders?.[parentId]);
  }

  /** The folder sync loop: run when a folder is opened, stopped when the user leaves it (signal). */
  syncFolder(parentId: string, signal?: AbortSignal): Promise<void> {
    return this.syncSlice(parentId, LIVE_FILTERS, { kind: 'folder', parentId }, signal);
  }

  /** Every starred item, for the star view. */
  syncStarred(signal?: AbortSignal): Promise<void> {
    return this.syncSlice('*', { ...LIVE_FILTERS, system_tag: { in: 'STAR' } }, { kind: 'starred' }, signal);
  }

  /**
   * Everything in the drive; afterwards incremental syncs carry on from this one's time. An interrupted run (tab
   * closed, network down) carries on from the page after the last one stored, with the same stamp, so what it stored
   * is neither fetched again nor taken as stale.
   */
  fullSync(): Promise<void> {
    if (!this.local.opened()) return this.whenOpen(() => this.fullSync());
    this.fullRun ??= this.tracked(async () => {
      const cursor = this.readMarks().fullCursor;
      try {
        await this.fullWalk(cursor);
      } catch (err) {
        // A cursor the server no longer takes: start again from the first page.
        if (!cursor || !isApiError(err, 'invalid_argument')) throw err;
        this.writeMarks({ fullCursor: undefined });
        await this.fullWalk(undefined);
      }
    }).finally(() => {
      this.fullRun = null;
    });
    return this.fullRun;
  }

  private async fullWalk(cursor: FullCursor | undefined) {
    // A folder opened along with the app (a first visit) shows its first rows before the whole drive starts pouring in.
    await this.opening;
    const stamp = cursor?.stamp ?? this.now();
    let since = cursor?.since ?? '';
    await this.walk(
      { parentId: '*', filters: LIVE_FILTERS },
      (files, syncTime) => {
        since ||= syncTime;
        return this.store(files);
      },
      undefined,
      cursor?.token,
      // Moved only once a page is stored, and every page before it, so the cursor never runs ahead of the rows.
      (next) => next && this.writeMarks({ fullCursor: { token: next, stamp, since } }),
    );
    await deleteStaleDrive(this.userId, stamp);
    this.writeMarks({ since, fullAt: this.now(), fullCursor: undefined });
  }

  /**
   * What changed since the last sync; at most one a second and one at a time. A request while one runs is not
   * dropped: one more run follows it, so a change made during a sync is never missed. A forced one looks back 10 minutes.
   */
  incremental(opts: { force?: boolean } = {}): Promise<void> {
    if (!this.local.opened()) return this.whenOpen(() => this.incremental(opts));
    if (this.incrementalRun) {
      this.followUp ??= this.incrementalRun
        .catch(() => undefined)
        .then(() => {
          this.followUp = null;
          return this.incremental(opts);
        });
      return this.followUp;
    }
    const marks = this.readMarks();
    if (!marks.since) return this.fullSync();
    const wait = Math.max(0, this.lastIncrementalAt + SYNC.incrementalThrottleMs - this.now());
    this.incrementalRun = this.tracked(async () => {
      if (wait) await this.sleep(wait);
      const since = opts.force ? new Date(this.now() - SYNC.forcedLookBackMs).toISOString() : marks.since!;
      const next = await this.walk({ parentId: '*', filters: { modified_time: { gt: since } } }, (files) =>
        this.store(files, true),
      );
      this.writeMarks({ since: next });
    }).finally(() => {
      this.lastIncrementalAt = this.now();
      this.incrementalRun = null;
    });
    return this.incrementalRun;
  }

  /** On start: a full sync when there is none yet or it is older than three periods, else an incremental one. */
  start(): Promise<void> {
    if (!this.local.opened()) return this.whenOpen(() => this.start());
    const marks = this.readMarks();
    if (!marks.since || !marks.fullAt || this.now() - marks.fullAt > 3 * SYNC.periodMs) return this.fullSync();
    return this.incremental();
  }
}
