/**
 * Rows by id, without a Map keyed by the id strings. V8 internalizes a string used as a Map or Set key (even to look
 * one up), and a folder of 100,000 internalized ids made every major garbage collection walk a string table of that
 * size: frames dropped while scrolling it. The keys here are a 30-bit hash of the id (a small integer, never a heap
 * object); the rare rows whose hashes collide share a bucket.
 */
export function hashId(id: string): number {
  // FNV-1a.
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

export class IdIndex<T extends { id: string }> {
  private readonly buckets = new Map<number, T | T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: string): T | undefined {
    const b = this.buckets.get(hashId(id));
    if (b === undefined || !Array.isArray(b)) return b?.id === id ? b : undefined;
    return b.find((r) => r.id === id);
  }

  set(row: T): void {
    const h = hashId(row.id);
    const b = this.buckets.get(h);
    if (b === undefined) {
      this.buckets.set(h, row);
      this.count++;
    } else if (!Array.isArray(b)) {
      if (b.id === row.id) this.buckets.set(h, row);
      else {
        this.buckets.set(h, [b, row]);
        this.count++;
      }
    } else {
      const i = b.findIndex((r) => r.id === row.id);
      if (i >= 0) b[i] = row;
      else {
        b.push(row);
        this.count++;
      }
    }
  }

  delete(id: string): boolean {
    const h = hashId(id);
    const b = this.buckets.get(h);
    if (b === undefined) return false;
    if (!Array.isArray(b)) {
      if (b.id !== id) return false;
      this.buckets.delete(h);
    } else {
      const i = b.findIndex((r) => r.id === id);
      if (i < 0) return false;
      b.splice(i, 1);
      if (b.length === 1) this.buckets.set(h, b[0]!);
    }
    this.count--;
    return true;
  }

  values(): T[] {
    const out: T[] = [];
    for (const b of this.buckets.values()) {
      if (Array.isArray(b)) out.push(...b);
      else out.push(b);
    }
    return out;
  }
}
