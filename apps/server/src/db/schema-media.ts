/** Tables of video transcoding: a job per content hash and its renditions (see the 0006 and 0036 migrations). */
import type { Generated } from 'kysely';

export interface MediaJobsTable {
  hash: string;
  phase: string;
  progress: number;
  message: string;
  /** Random per claim: a worker whose job was taken over (lease ran out) stops writing. */
  lease_id: string;
  attempts: number;
  created_time: number;
  updated_time: number;
  /** The account whose play or upload queued it ('' before 0036): accounts take turns (tasks/turns.ts). */
  user_id: Generated<string>;
  /** When a worker last claimed it. */
  claimed_time: Generated<number | null>;
}

export interface MediaRenditionsTable {
  hash: string;
  /** "480p", "720p", … */
  name: string;
  position: number;
  phase: string;
  progress: number;
  message: string;
  width: number;
  height: number;
  bandwidth: number;
  has_audio: number;
  /** Scratch folder name while the rendition is being written; '' otherwise. */
  scratch: string;
  /** The finished media playlist with local segment names; '' until complete. */
  playlist: string;
  /** JSON: local segment name → { hash, size }. */
  segments: string;
  updated_time: number;
}
