/**
 * An image subtitle track burned into the picture: asked for when the track is chosen, then asked again every two
 * seconds while the server makes it; once ready, the player plays its link in place of the usual rendition.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type MutableRefObject } from 'react';
import type { Contract, DriveMedia, RouteAnswer } from '@haul/shared';
import { haul } from '../../lib/api-client';

export type SubtitleBurn = RouteAnswer<Contract['burnSubtitles']>;

const POLL_MS = 2000;

/** Where the burn-in of `trackId` stands (null when no image track is chosen or the call failed). */
export function useSubtitleBurn(videoId: string, trackId: string, enabled: boolean): { burn: SubtitleBurn | null; failed: boolean } {
  const query = useQuery({
    queryKey: ['subtitle-burn', videoId, trackId],
    queryFn: ({ signal }) => haul.call('burnSubtitles', { params: { id: videoId, trackId }, signal }),
    enabled: enabled && !!trackId,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? POLL_MS : false),
    // The link is signed for a while: a ready answer kept a few minutes still plays.
    staleTime: 5 * 60_000,
    retry: false,
  });
  return { burn: trackId ? (query.data ?? null) : null, failed: !!trackId && query.isError };
}

/**
 * The source the <video> plays: the burned copy once ready (an MP4 the browser plays itself, as an original), else
 * the chosen rendition. On each change between the two, `startAt` takes the last time played (`lastTime`, which the
 * player keeps), so the other starts there.
 */
export function useBurnedMedia(media: DriveMedia | null, burn: SubtitleBurn | null, startAt: MutableRefObject<number>) {
  const burned = burn?.state === 'ready' ? burn : null;
  const shown: DriveMedia | null =
    media && burned ? { ...media, media_id: `burned-${burned.track_id}`, is_origin: true, link: { ...media.link, url: burned.link.url } } : media;
  const lastTime = useRef(0);
  const isBurned = !!burned;
  const wasBurned = useRef(isBurned);
  // Runs before the player's source effect (declared earlier), after the old source was detached.
  useEffect(() => {
    if (wasBurned.current !== isBurned) startAt.current = lastTime.current;
    wasBurned.current = isBurned;
  }, [isBurned, startAt]);
  return { burned, shown, lastTime };
}
