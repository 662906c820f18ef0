/** Tables of cloud decompression: see the 0020 migration. */

/** An unpacking task's work: what to unpack, where, and what is done (the task row itself is in tasks). */
export interface ArchiveJobsTable {
  task_id: string;
  user_id: string;
  file_id: string;
  archive_hash: string;
  archive_name: string;
  /** Sealed (archives/password-seal.ts); '' when none. Cleared when the task ends. */
  password: string;
  encoding: string;
  parent_id: string;
  folder_name: string;
  entries: string;
  done: string;
  created_at: number;
}
