/**
 * What the benchmark drives in every candidate: the public API of the web app's local store
 * (apps/web/src/features/sync/local-files.ts and local-db.ts), plus how to open it and count what it keeps.
 */
import type { DriveFile } from '@haul/shared';

export interface LocalFile extends DriveFile {
  local_sync_timestamp: number;
}

export type LocalSlice = { kind: 'folder'; parentId: string } | { kind: 'starred' };

export interface LocalStore {
  /** Opens (or creates) the store; what a page waits for before its first read. */
  open(): Promise<unknown>;
  writeLocalPage(put: LocalFile[], deleted: string[]): Promise<void>;
  putLocal(rows: LocalFile[]): Promise<void>;
  deleteLocal(ids: string[]): Promise<void>;
  updateLocal(changes: { id: string; changes: Partial<LocalFile> }[]): Promise<void>;
  readSlice(userId: string, slice: LocalSlice, onChunk: (rows: LocalFile[]) => void, signal?: AbortSignal, chunk?: number): Promise<void>;
  deleteStale(userId: string, slice: LocalSlice, stamp: number): Promise<void>;
  deleteStaleDrive(userId: string, stamp: number): Promise<void>;
  clearLocalUser(userId: string): Promise<void>;
  /** Rows the store holds, by its own count (SQLite: `count(*)`; IndexedDB layouts: unknown, counted from records). */
  rows?(): Promise<number>;
  /** What the store wrote below it, where it can tell (SQLite: the VFS's block puts so far). */
  io?(): Promise<unknown>;
}
