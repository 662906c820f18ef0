/**
 * A request body cut into multipart-upload parts in memory. tus's S3 store stages each part in a file of the system's
 * temp folder and reads it back to send it; here a part is filled only once one of the process's slots is free (so
 * memory stays bounded: slots x part size), and sent while the next fills.
 */
import type { Readable } from 'node:stream';

export interface PartSlots {
  acquire(): Promise<{ release(): Promise<void> }>;
}

export interface PartSink {
  partSize: number;
  slots: PartSlots;
  /** Called in order for each whole part as it is sent (hashing); the next part is read once it resolves. */
  beforeWhole?: (bytes: Buffer, partNumber: number) => Promise<void>;
  /** Sends a whole part (at least the minimum size, or the last of the upload). */
  whole(bytes: Buffer, partNumber: number): Promise<void>;
  /** Keeps a last piece under the minimum part size until the next request. */
  tail(bytes: Buffer): Promise<void>;
  /** Whether a piece of this size, ending at this offset, is a whole part. */
  isWhole(length: number, endOffset: number): boolean;
}

/** Reads `source` to its end as parts numbered from `firstPart`, starting at upload offset `offset`; answers the bytes stored. */
export async function sendParts(source: Readable, sink: PartSink, firstPart: number, offset: number): Promise<number> {
  const sending: Promise<void>[] = [];
  let uploaded = 0;
  let failure: unknown = null;
  let buf: Buffer | null = null;
  let filled = 0;
  let permit: { release(): Promise<void> } | null = null;
  let partNumber = firstPart;
  const send = async () => {
    const bytes = buf!.subarray(0, filled);
    const held = permit!;
    buf = null;
    permit = null;
    filled = 0;
    offset += bytes.length;
    const whole = sink.isWhole(bytes.length, offset);
    const n = whole ? partNumber++ : 0;
    // The part is sent at once; its hashing runs alongside, and the next part fills only once it is done.
    const hashed = whole && sink.beforeWhole ? sink.beforeWhole(bytes, n) : null;
    const p = (whole ? sink.whole(bytes, n) : sink.tail(bytes))
      .then(() => void (uploaded += bytes.length))
      .catch((err: unknown) => {
        failure ??= err;
        source.destroy();
      })
      .finally(() => void held.release().catch(() => undefined));
    sending.push(p);
    if (hashed) await hashed;
  };
  try {
    for await (const data of source) {
      let chunk = data as Buffer;
      while (chunk.length > 0 && !failure) {
        if (!buf) {
          permit = await sink.slots.acquire();
          buf = Buffer.allocUnsafe(sink.partSize);
        }
        const take = Math.min(buf.length - filled, chunk.length);
        chunk.copy(buf, filled, 0, take);
        filled += take;
        chunk = chunk.subarray(take);
        if (filled === buf.length) await send();
      }
      if (failure) break;
    }
    if (buf && filled > 0 && !failure) await send();
  } catch (err) {
    failure ??= err;
  } finally {
    if (permit) void (permit as { release(): Promise<void> }).release().catch(() => undefined);
    await Promise.all(sending);
  }
  if (failure) throw failure;
  return uploaded;
}
