/**
 * Writes to the chunked local copy (chunks.ts): rows put, changed or deleted by id, each call one transaction.
 *
 * Which chunk holds a row comes from the locator, a map of every stored id kept in memory, made from the `chunk_ids`
 * records (a few MB of strings) the first time a write needs it, a few thousand ids a task. Other tabs write too:
 * every write adds one to the generation in `local_meta`, and a write that finds it moved since the locator was made
 * (another tab wrote, or a write of this one failed) makes the locator again, inside its own transaction.
 */
import { IdIndex } from '../files/id-index';
import { localDb, type DriveDb } from './local-db';
import { CHUNK_ROWS, idsOf, sealChunk, shelfOf, splitIds, type Chunk, type ChunkIds, type ChunkKey } from './chunks';
import { fromStored, toStored, type LocalFile, type StoredFile } from './stored-row';

/** One chunk as the locator knows it: shared by all its rows' entries. */
interface Place {
  user: string;
  shelf: number;
  n: number;
}

/** Where a row is. (An IdIndex, not a Map keyed by the ids: see id-index.ts on V8 internalizing such keys.) */
interface Located {
  id: string;
  place: Place;
}

interface Locator {
  gen: number;
  where: IdIndex<Located>;
  /** The highest chunk number of each user's shelf (`user\nshelf`): where new rows go. */
  last: Map<string, Place>;
  /**
   * The rows of each shelf's last chunk as this tab last wrote them, valid while the generation is unchanged: the
   * next page of a sync adds to that chunk without reading it back.
   */
  held: Map<Place, StoredFile[]>;
}

let locator: Locator | null = null;

const shelfKey = (user: string, shelf: number) => `${user}\n${shelf}`;
const keyOf = (p: Place): ChunkKey => [p.user, p.shelf, p.n];

function emptyLocator(gen: number): Locator {
  return { gen, where: new IdIndex(), last: new Map(), held: new Map() };
}

/** Adds a chunk's ids; answers how many. */
function addChunk(loc: Locator, r: ChunkIds): number {
  const place: Place = { user: r.user_id, shelf: r.shelf, n: r.n };
  const ids = splitIds(r.ids);
  for (const id of ids) loc.where.set({ id, place });
  const key = shelfKey(r.user_id, r.shelf);
  if ((loc.last.get(key)?.n ?? -1) < r.n) loc.last.set(key, place);
  return ids.length;
}

function makeLocator(records: ChunkIds[], gen: number): Locator {
  const loc = emptyLocator(gen);
  for (const r of records) addChunk(loc, r);
  return loc;
}

/** Ids mapped a task: the map of 100,000 made in one go was a task of a quarter of a second. */
const IDS_A_TASK = 5000;
let making: Promise<void> | null = null;

/**
 * Makes the map before a write needs it, a few thousand ids a task, from a read of its own: a write finding the
 * generation moved since (another tab wrote in between) makes it again inside its transaction, as always.
 */
function prepareLocator(db: DriveDb): Promise<void> {
  making ??= (async () => {
    const tx = db.transaction(['chunk_ids', 'local_meta']);
    const [meta, records] = await Promise.all([tx.objectStore('local_meta').get('chunks'), tx.objectStore('chunk_ids').getAll()]);
    const loc = emptyLocator(meta?.gen ?? 0);
    let mapped = 0;
    for (const r of records) {
      mapped += addChunk(loc, r);
      if (mapped >= IDS_A_TASK) {
        mapped = 0;
        await new Promise((resolve) => setTimeout(resolve));
      }
    }
    locator = loc;
  })().finally(() => (making = null));
  return making;
}

export interface RowWrites {
  put?: LocalFile[];
  /** Fields changed on stored rows; rows not stored are left out. */
  update?: { id: string; changes: Partial<LocalFile> }[];
  deleted?: string[];
}

/** A chunk being changed: its rows and where each id sits among them (made when first needed). */
class Open {
  private index: IdIndex<{ id: string; at: number }> | null = null;
  dirty = false;
  constructor(
    readonly place: Place,
    public rows: StoredFile[],
  ) {}
  private positions() {
    if (!this.index) {
      this.index = new IdIndex();
      this.rows.forEach((r, at) => this.index!.set({ id: r.id, at }));
    }
    return this.index;
  }
  get(id: string): StoredFile | undefined {
    const i = this.positions().get(id)?.at;
    return i === undefined ? undefined : this.rows[i];
  }
  set(row: StoredFile) {
    const index = this.positions();
    const i = index.get(row.id)?.at;
    if (i === undefined) {
      index.set({ id: row.id, at: this.rows.length });
      this.rows.push(row);
    } else this.rows[i] = row;
    this.dirty = true;
  }
  remove(id: string) {
    const index = this.positions();
    const i = index.get(id)?.at;
    if (i === undefined) return;
    // The last row takes the gap: order inside a chunk carries no meaning.
    const tail = this.rows.pop()!;
    if (i < this.rows.length) {
      this.rows[i] = tail;
      index.set({ id: tail.id, at: i });
    }
    index.delete(id);
    this.dirty = true;
  }
}

/**
 * Applies deletions, then changes, then puts, in one transaction; resolves with the rows put and changed (as stored)
 * once it commits. A failed write keeps nothing and leaves the locator to be made again.
 */
export async function writeRows(w: RowWrites): Promise<LocalFile[]> {
  const db = await localDb();
  try {
    if (!locator) await prepareLocator(db);
    return await inTransaction(db, w);
  } catch (err) {
    locator = null;
    throw err;
  }
}

async function inTransaction(db: DriveDb, w: RowWrites): Promise<LocalFile[]> {
  const tx = startWrite(db);
  const done = tx.done;
  done.catch(() => undefined); // awaited below; a failure before then is reported there
  try {
    return await changeChunks(tx, w, done);
  } catch (err) {
    // A row IndexedDB refuses (one it cannot copy): none of the write is kept.
    try {
      tx.abort();
    } catch {
      /* already finished */
    }
    throw err;
  }
}

type WriteTx = ReturnType<typeof startWrite>;
const startWrite = (db: DriveDb) => db.transaction(['chunks', 'chunk_ids', 'local_meta'], 'readwrite', { durability: 'relaxed' });

/** One write's view of the chunks: the locator it works with and the chunks it has opened so far. */
class ChunkWrite {
  readonly open = new Map<Place, Open>();
  readonly chunks;
  constructor(
    readonly tx: WriteTx,
    readonly loc: Locator,
  ) {
    this.chunks = tx.objectStore('chunks');
  }

  placeOf(id: string): Place | undefined {
    return this.loc.where.get(id)?.place;
  }

  /** An opened chunk. */
  chunk(p: Place): Open {
    return this.open.get(p)!;
  }

  /** Opens the chunks at `places` not open yet: from the rows this tab holds, else read. */
  async load(places: Iterable<Place>): Promise<void> {
    for (const p of places) {
      const rows = this.loc.held.get(p);
      if (rows && !this.open.has(p)) this.open.set(p, new Open(p, rows));
    }
    const wanted = [...new Set(places)].filter((p) => !this.open.has(p));
    const found = await Promise.all(wanted.map((p) => this.chunks.get(keyOf(p))));
    wanted.forEach((p, i) => this.open.set(p, new Open(p, found[i]?.rows ?? [])));
  }

  /** Takes a row out of its (open) chunk and the locator. */
  remove(id: string): void {
    const p = this.placeOf(id);
    if (!p) return;
    this.chunk(p).remove(id);
    this.loc.where.delete(id);
  }

  isLastOfShelf(p: Place): boolean {
    return this.loc.last.get(shelfKey(p.user, p.shelf)) === p;
  }
}

/** A row going to the end of a shelf: the shelf and its key worked out once. */
interface Arrival {
  row: LocalFile;
  shelf: number;
  key: string;
}

const isPlace = (p: Place | undefined): p is Place => !!p;

async function changeChunks(tx: WriteTx, w: RowWrites, done: Promise<void>): Promise<LocalFile[]> {
  const meta = await tx.objectStore('local_meta').get('chunks');
  const gen = meta?.gen ?? 0;
  if (locator?.gen !== gen) locator = makeLocator(await tx.objectStore('chunk_ids').getAll(), gen);
  const write = new ChunkWrite(tx, locator);

  // The chunks holding every row named; the last chunk of each shelf a row may go to is opened when it moves there.
  const named = [...(w.deleted ?? []), ...(w.update ?? []).map((u) => u.id), ...(w.put ?? []).map((r) => r.id)];
  await write.load(named.map((id) => write.placeOf(id)).filter(isPlace));
  for (const id of w.deleted ?? []) write.remove(id);
  const rows = rowsToWrite(write, w);
  const moving = changeInPlace(write, rows);
  if (moving.length) await appendToShelves(write, moving);
  saveChunks(write);
  void tx.objectStore('local_meta').put({ key: 'chunks', gen: gen + 1 });
  write.loc.gen = gen + 1;
  await done;
  return rows;
}

/** The rows put, then the stored rows changed, with their changes applied (rows not stored are left out). */
function rowsToWrite(write: ChunkWrite, w: RowWrites): LocalFile[] {
  const rows: LocalFile[] = [...(w.put ?? [])];
  for (const u of w.update ?? []) {
    const p = write.placeOf(u.id);
    const stored = p && write.chunk(p).get(u.id);
    if (stored) rows.push({ ...fromStored({ ...stored }), ...u.changes });
  }
  return rows;
}

/**
 * Rows that stay on their shelf are changed where they are; the others leave their chunk and are answered, to go to
 * the end of their new shelf.
 */
function changeInPlace(write: ChunkWrite, rows: LocalFile[]): Arrival[] {
  const moving: Arrival[] = [];
  for (const row of rows) {
    const p = write.placeOf(row.id);
    const shelf = shelfOf(row.parent_id);
    if (p && p.user === row.user_id && p.shelf === shelf) write.chunk(p).set(toStored(row));
    else {
      if (p) write.remove(row.id);
      moving.push({ row, shelf, key: shelfKey(row.user_id, shelf) });
    }
  }
  return moving;
}

/** Adds rows to the last chunk of their shelf, starting a new chunk where it is full. */
async function appendToShelves(write: ChunkWrite, moving: Arrival[]): Promise<void> {
  const { loc } = write;
  await write.load(moving.map((m) => loc.last.get(m.key)).filter(isPlace));
  // A shelf's batch that fits in a chunk but not in the room left goes whole into a new one, so a sync page writes
  // one chunk rather than the end of one and the start of the next.
  const arriving = new Map<string, number>();
  for (const m of moving) arriving.set(m.key, (arriving.get(m.key) ?? 0) + 1);
  const started = new Set<string>();
  for (const { row, shelf, key } of moving) {
    let last = loc.last.get(key);
    const used = last ? write.chunk(last).rows.length : 0;
    const batch = arriving.get(key)!;
    const moveOn = !started.has(key) && used > 0 && used + batch > CHUNK_ROWS && batch <= CHUNK_ROWS;
    started.add(key);
    if (!last || used >= CHUNK_ROWS || moveOn) {
      last = { user: row.user_id, shelf, n: last ? last.n + 1 : 0 };
      loc.last.set(key, last);
      write.open.set(last, new Open(last, []));
    }
    write.chunk(last).set(toStored(row));
    loc.where.set({ id: row.id, place: last });
  }
}

/**
 * Stores the changed chunks with their id records, and keeps each shelf's last chunk in memory for the next write.
 * An emptied chunk goes, but for its shelf's last one, where new rows are added.
 */
function saveChunks(write: ChunkWrite): void {
  const { chunks } = write;
  const ids = write.tx.objectStore('chunk_ids');
  const { held } = write.loc;
  for (const c of write.open.values()) {
    const last = write.isLastOfShelf(c.place);
    if (last) held.set(c.place, c.rows);
    else held.delete(c.place);
    if (!c.dirty) continue;
    if (!c.rows.length && !last) {
      void chunks.delete(keyOf(c.place));
      void ids.delete(keyOf(c.place));
      continue;
    }
    const { user, shelf, n } = c.place;
    const record: Chunk = sealChunk(user, shelf, n, c.rows);
    void chunks.put(record);
    void ids.put(idsOf(record));
  }
}
