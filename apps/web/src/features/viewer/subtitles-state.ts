/**
 * The subtitles of the open video: its tracks (fetched once per video, and again with a picked file) and the choice
 * remembered for it; subtitle-cues.ts applies the choice to the <video>'s text tracks.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getSubtitleChoice, saveSubtitleChoice, type SubtitleChoice } from './subtitle-records';
import { listSubtitles, type SubtitleTrack } from './subtitles-api';
import { useSubtitleBurn, type SubtitleBurn } from './subtitles-burn';

export interface Subtitles {
  tracks: SubtitleTrack[];
  loading: boolean;
  failed: boolean;
  choice: SubtitleChoice;
  /** The burn-in of the chosen image track; null when a text track or none is chosen. */
  burn: SubtitleBurn | null;
  burnFailed: boolean;
  /** Changes the choice and remembers it for this video. */
  change: (patch: Partial<SubtitleChoice>) => void;
}

/** The tracks and choice of `fileId`; nothing is fetched unless `enabled` (a video of one's own drive). */
export function useSubtitles(fileId: string, enabled: boolean): Subtitles {
  const [choice, setChoice] = useState(() => getSubtitleChoice(fileId));
  useEffect(() => setChoice(getSubtitleChoice(fileId)), [fileId]);
  const query = useQuery({
    queryKey: ['subtitles', fileId, choice.file],
    queryFn: ({ signal }) => listSubtitles(fileId, choice.file, signal),
    enabled,
    // The links are signed for a while: a list kept a few minutes still plays.
    staleTime: 5 * 60_000,
    retry: false,
  });
  const change = (patch: Partial<SubtitleChoice>) =>
    setChoice((c) => {
      const next = { ...c, ...patch };
      saveSubtitleChoice(fileId, next);
      return next;
    });
  // A picked file that is gone (deleted, trashed) is forgotten, and the video plays without it.
  useEffect(() => {
    if (query.isError && choice.file) change({ file: '', track: choice.track === `f${choice.file}` ? '' : choice.track });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reacts to a failed list only
  }, [query.isError]);
  const tracks = query.data ?? [];
  const image = tracks.find((s) => s.id === choice.track && s.kind === 'image');
  const { burn, failed: burnFailed } = useSubtitleBurn(fileId, image?.id ?? '', enabled);
  return { tracks, loading: query.isLoading, failed: query.isError, choice, change, burn, burnFailed };
}
