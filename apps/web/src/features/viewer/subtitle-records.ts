/**
 * The subtitle choice of each video (track, picked file, size, position, delay), kept in localStorage beside the play
 * positions (pp_web_ keys) for the last 200 videos; the size and position last chosen are where a new video starts.
 */

export const SUBTITLE_SIZES = ['small', 'medium', 'large', 'larger'] as const;
export type SubtitleSize = (typeof SUBTITLE_SIZES)[number];

export interface SubtitleChoice {
  /** The track id of the list ('' for off). */
  track: string;
  /** A subtitle file picked from the drive ('' for none): asked for again with the list. */
  file: string;
  size: SubtitleSize;
  /** Lines above the usual place (0 is the bottom). */
  raise: number;
  /** Seconds added to every cue (later when positive). */
  delay: number;
}

const KEEP = 200;
const CHOICES = 'pp_web_subtitles';
const STYLE = 'pp_web_subtitle_style';
export const MAX_RAISE = 8;
export const DELAY_STEP = 0.5;
export const MAX_DELAY = 600;

const read = <T>(key: string, fallback: T): T => {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
};
const write = (key: string, value: unknown) => {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or refused: the choice lasts while the player is open */
  }
};

/** A stored value made safe to use: anything odd falls back to the usual. */
function sane(c: Partial<SubtitleChoice> | undefined, style: Partial<SubtitleChoice>): SubtitleChoice {
  const size = SUBTITLE_SIZES.includes(c?.size as SubtitleSize) ? c!.size! : SUBTITLE_SIZES.includes(style.size as SubtitleSize) ? style.size! : 'medium';
  const num = (v: unknown, lo: number, hi: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : 0);
  return {
    track: typeof c?.track === 'string' ? c.track : '',
    file: typeof c?.file === 'string' ? c.file : '',
    size,
    raise: Math.round(num(c ? c.raise : style.raise, 0, MAX_RAISE)),
    delay: num(c?.delay, -MAX_DELAY, MAX_DELAY),
  };
}

/** The remembered choice of a video, or off with the last size and position used. */
export function getSubtitleChoice(fileId: string): SubtitleChoice {
  const all = read<Record<string, Partial<SubtitleChoice>>>(CHOICES, {});
  return sane(all[fileId], read<Partial<SubtitleChoice>>(STYLE, {}));
}

/** Remembers a video's choice (newest last, the oldest dropped past 200) and its size and position for new videos. */
export function saveSubtitleChoice(fileId: string, choice: SubtitleChoice): void {
  const all = read<Record<string, SubtitleChoice>>(CHOICES, {});
  delete all[fileId];
  const kept = Object.entries(all).slice(-(KEEP - 1));
  write(CHOICES, Object.fromEntries([...kept, [fileId, choice]]));
  write(STYLE, { size: choice.size, raise: choice.raise });
}
