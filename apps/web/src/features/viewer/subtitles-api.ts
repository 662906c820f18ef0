/** A video's subtitle tracks (inside it, beside it, and a picked file) with their signed WebVTT links. */
import type { Contract, RouteAnswer } from '@haul/shared';
import { haul } from '../../lib/api-client';

export type SubtitleTrack = RouteAnswer<Contract['listSubtitles']>['tracks'][number];

/** The tracks of a video of the drive; `pickedFile` adds a subtitle file chosen from the drive. */
export async function listSubtitles(videoId: string, pickedFile: string, signal?: AbortSignal): Promise<SubtitleTrack[]> {
  const res = await haul.call('listSubtitles', { params: { id: videoId }, query: { file_id: pickedFile || undefined }, signal });
  return res.tracks;
}

/** How a track is named in the menu: its language in the interface's words, its title, or the file's name. */
export function subtitleLabel(track: SubtitleTrack, index: number, uiLanguage: string, words: { track: (n: number) => string; forced: string }): string {
  let language = '';
  if (track.language) {
    try {
      language = new Intl.DisplayNames([uiLanguage], { type: 'language', fallback: 'none' }).of(track.language) ?? '';
    } catch {
      /* not a tag Intl knows: shown as written */
    }
    language ||= track.language;
  }
  const parts = [language, track.title, track.forced ? words.forced : ''].filter(Boolean);
  if (track.source === 'embedded') return parts.join(' · ') || words.track(index + 1);
  return parts.length ? `${parts.join(' · ')} (${track.name})` : track.name;
}
