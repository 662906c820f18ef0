/** The browser's copy of the drive: IndexedDB database `drive`, version 7 (seed 000 §3). */
import Dexie, { type EntityTable } from 'dexie';
import type { DriveFile } from '@haul/shared';

export interface LocalFile extends DriveFile {
  /** When a sync (or a change made here) last wrote this row (epoch ms); rows of a synced slice older than the sync's start are stale. */
  local_sync_timestamp: number;
}

export interface LocalTask {
  taskId: string;
  userId: string;
  status: string;
  taskType: string;
  [key: string]: unknown;
}

export class DriveDb extends Dexie {
  files!: EntityTable<LocalFile, 'id'>;
  tasks!: EntityTable<LocalTask, 'taskId'>;
  resumes!: EntityTable<{ uploadId: string; [key: string]: unknown }, 'uploadId'>;
  checkpoints!: EntityTable<{ task_id: string; [key: string]: unknown }, 'task_id'>;

  constructor() {
    super('drive');
    this.version(7).stores({
      files:
        'id, user_id, parent_id, star, local_sync_timestamp, [user_id+parent_id], [user_id+star], [user_id+parent_id+id], [user_id+star+id]',
      tasks: 'taskId, userId, status, taskType',
      resumes: 'uploadId',
      checkpoints: 'task_id',
    });
  }
}

export const localDb = new DriveDb();

/** Forgets everything kept for a user (sign-out, or another account signing in on this browser). */
export async function clearLocalUser(userId: string): Promise<void> {
  // The sync marks go with the rows: a later sign-in starts from a full sync.
  localStorage.removeItem(`haul.sync.${userId}`);
  await localDb.files.where('user_id').equals(userId).delete();
  await localDb.tasks.where('userId').equals(userId).delete();
}
