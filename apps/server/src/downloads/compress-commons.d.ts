/** The part of compress-commons (no types of its own) that zip-writer.ts uses. */
declare module 'compress-commons' {
  import { Transform } from 'node:stream';
  export class ZipArchiveEntry {
    constructor(name: string);
    name: string;
    getGeneralPurposeBit(): { useUTF8ForNames(on: boolean): void };
    setMethod(method: number): void;
    setTime(date: Date, forceLocalTime?: boolean): void;
    setUnixMode(mode: number): void;
  }
  export class ZipArchiveOutputStream extends Transform {
    constructor(options?: { forceZip64?: boolean; zlib?: { level?: number } });
    entry(entry: ZipArchiveEntry, source: Buffer | NodeJS.ReadableStream, callback: (err: Error | null) => void): this;
    finish(): void;
  }
}
