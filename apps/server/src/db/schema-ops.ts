/** The running processes' heartbeats (migration 0041, ops/heartbeat.ts). */
export interface ProcessHeartbeatsTable {
  /** Random per process start (two servers in one process are two rows). */
  id: string;
  /** all, serve or worker (roles.ts). */
  role: string;
  version: string;
  host: string;
  pid: number;
  /** Epoch ms. */
  started_at: number;
  /** Epoch ms of the last heartbeat. */
  seen_at: number;
}
