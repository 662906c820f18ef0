/**
 * BLAKE3 of a local file, as the server computes it, read with plain fs reads of 4 MiB: a Blob's stream hands
 * hash-wasm 64 KiB at a time and ran at about half the speed (bench/README.md, the command line's section).
 */
import { open } from 'node:fs/promises';
import { createBLAKE3 } from 'hash-wasm';

const READ = 4 * 1024 * 1024;

/** The hasher of a download in progress: bytes go in as they arrive, the hex digest comes out at the end. */
export async function blake3(): Promise<{ update(bytes: Uint8Array): void; hex(): string }> {
  const h = await createBLAKE3();
  h.init();
  return { update: (bytes) => void h.update(bytes), hex: () => h.digest('hex') };
}

/** Hashes `path` from its start (or its first `upTo` bytes) into `into`; `onBytes` gets each read's length. */
export async function hashFileInto(into: { update(bytes: Uint8Array): void }, path: string, onBytes?: (n: number) => void, upTo = Infinity): Promise<void> {
  const fh = await open(path);
  try {
    const buf = Buffer.allocUnsafe(READ);
    for (let at = 0; at < upTo; ) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(READ, upTo - at), at);
      if (!bytesRead) break;
      into.update(buf.subarray(0, bytesRead));
      at += bytesRead;
      onBytes?.(bytesRead);
    }
  } finally {
    await fh.close();
  }
}

/** The content hash of a whole local file (hex). */
export async function hashFile(path: string, onBytes?: (n: number) => void): Promise<string> {
  const h = await blake3();
  await hashFileInto(h, path, onBytes);
  return h.hex();
}
