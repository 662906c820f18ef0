/**
 * What the players remember in localStorage (keys prefixed pp_web_, seed 001 §3): where each video and long song
 * stopped (the last 30 of each), the volumes, the song play mode, the rotation of each photo.
 */
import type { PlayMode } from './playback-rules';

export interface PlayRecord {
  id: string;
  /** Seconds played. */
  value: number;
  percentage: number;
}

const KEEP = 30;
const read = <T>(key: string, fallback: T): T => {
  try {
    const raw = localStorage.getItem(`pp_web_${key}`);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
};
const write = (key: string, value: unknown) => {
  try {
    localStorage.setItem(`pp_web_${key}`, JSON.stringify(value));
  } catch {
    /* storage full or refused: the player works without memory */
  }
};

export type RecordKind = 'video' | 'audio';

export function getRecord(kind: RecordKind, id: string): PlayRecord | undefined {
  return read<PlayRecord[]>(`${kind}_records`, []).find((r) => r.id === id);
}

/** Saves a position, newest first, keeping the last 30. */
export function saveRecord(kind: RecordKind, record: PlayRecord): void {
  const rest = read<PlayRecord[]>(`${kind}_records`, []).filter((r) => r.id !== record.id);
  write(`${kind}_records`, [record, ...rest].slice(0, KEEP));
}

export const getVolume = (kind: RecordKind, fallback: number) => read<number>(`${kind}_volume`, fallback);
export const setVolume = (kind: RecordKind, v: number) => write(`${kind}_volume`, v);
/** The volume before muting, restored on unmute. */
export const getMutedVolume = (kind: RecordKind) => read<number>(`${kind}_muted_volume`, 0);
export const setMutedVolume = (kind: RecordKind, v: number) => write(`${kind}_muted_volume`, v);

export const getPlayMode = () => read<PlayMode>('audio_play_mode', 'list');
export const setPlayMode = (m: PlayMode) => write('audio_play_mode', m);

const DEG_KEEP = 200;
/** Rotation of a photo (multiples of -90), remembered per file. */
export const getDeg = (id: string) => read<Record<string, number>>('image_deg', {})[id] ?? 0;
export function setDeg(id: string, deg: number): void {
  const all = read<Record<string, number>>('image_deg', {});
  delete all[id];
  const entries = Object.entries(all).slice(-(DEG_KEEP - 1));
  write('image_deg', Object.fromEntries(deg % 360 === 0 ? entries : [...entries, [id, deg]]));
}
