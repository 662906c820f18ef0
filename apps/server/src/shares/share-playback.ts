/**
 * What a share's visitor may play. The owner and premium accounts get the whole video; everyone else a preview (the
 * larger of HAUL_SHARE_PREVIEW_SECONDS and HAUL_SHARE_PREVIEW_FRACTION of the duration), which saving the video to
 * one's own drive lifts. Renditions above the free plan's resolution play for premium visitors only.
 */
import { mediaTypeOf, type DriveMedia } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow, ShareRow } from '../db/schema.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';
import { findProbe } from '../media/media.repository.js';
import { describeFileMedia, type MediaViewer } from '../media/media.service.js';
import { previewSeconds } from '../media/playback.policy.js';
import { signShareMediaLink } from './share-secrets.js';

export interface SharePlayback {
  /** Plays to the end; false: the preview only. */
  whole: boolean;
  /** Plays renditions above the free plan's resolution. */
  premium: boolean;
}

/** The playback of a visitor (a signed-in account's id, or none); null when the account named is gone or disabled. */
export async function sharePlaybackOf(ctx: AppContext, share: ShareRow, visitorId: string | undefined): Promise<SharePlayback | null> {
  if (!visitorId) return { whole: false, premium: false };
  const user = await findUserById(ctx.db, visitorId);
  if (!user || user.deleted_at !== null || user.disabled_at !== null) return null;
  const premium = isPremium(user, ctx.clock.now());
  return { whole: premium || user.id === share.user_id, premium };
}

/** Seconds of a video a limited visitor may play, from its probed duration. */
export async function previewSecondsOf(ctx: AppContext, file: FileRow): Promise<number> {
  const stored = await findProbe(ctx.db, file.hash, 'video');
  const duration = stored?.probe?.kind === 'video' ? stored.probe.duration : 0;
  return previewSeconds(duration, ctx.config.sharePreviewSeconds, ctx.config.sharePreviewFraction);
}

/**
 * `medias` and params of a shared video or song for a visitor. A limited visitor is not offered a video's original
 * (its bytes cannot be cut at a time): the renditions' playlists end at the allowed point. A song has no renditions
 * to cut, so it plays whole.
 */
export async function shareFileMedia(
  ctx: AppContext,
  share: ShareRow,
  file: FileRow,
  visitor: { id?: string; contentLink: string },
  opts: { play: boolean; onQueued?: () => void },
): Promise<{ medias: DriveMedia[]; params: Record<string, string> } | null> {
  const kind = mediaTypeOf(file.name, file.mime_type);
  if (kind !== 'video' && kind !== 'audio') return null;
  const playback = (await sharePlaybackOf(ctx, share, visitor.id)) ?? { whole: false, premium: false };
  const originLink = { url: visitor.contentLink, expire: '' };
  const viewer: MediaViewer = {
    origin: playback.whole || kind === 'audio' ? originLink : null,
    rendition: (name) => signShareMediaLink(ctx, share, file.id, `${name}/index.m3u8`, visitor.id),
    premium: playback.premium,
  };
  const media = await describeFileMedia(ctx, viewer, file, opts);
  if (!media) return null;
  const limit: Record<string, string> = playback.whole || kind === 'audio'
    ? {}
    : { anonymous_play_seconds: String(ctx.config.sharePreviewSeconds), anonymous_play_range: String(ctx.config.sharePreviewFraction) };
  return { medias: media.medias, params: limit };
}
