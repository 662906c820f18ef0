/**
 * Subtitles of a video: the text tracks inside it (SRT, ASS/SSA, mov_text, WebVTT), image tracks (PGS, VobSub) burned
 * into a copy of the picture on request, subtitle files beside it in its folder, and any subtitle file of the drive picked for it.
 * Every text track is served as sanitised WebVTT through a signed link, as the player's video is.
 */
import { Type, type Static } from '@sinclair/typebox';
import { route } from './define.js';
import { StringEnum } from './schema-kit.js';
import { Id } from './files.js';

const tag = 'Media';

export const SUBTITLE_SOURCES = ['embedded', 'sidecar', 'file'] as const;
export const SUBTITLE_KINDS = ['text', 'image'] as const;

export const SubtitleTrackSchema = Type.Object({
  id: Type.String({ description: 'The track: "s" and the stream index for a track inside the video (s2), "f" and the file id for a subtitle file.' }),
  source: StringEnum(SUBTITLE_SOURCES, {
    description: 'embedded: inside the video; sidecar: a file beside it with the same base name; file: the file named by file_id in the request.',
  }),
  kind: StringEnum(SUBTITLE_KINDS, {
    description: 'text: offered as WebVTT; image: pictures of text (PGS, VobSub, DVB), no WebVTT link: it can be burned into the picture (burnSubtitles).',
  }),
  codec: Type.String({ description: 'subrip, ass, ssa, mov_text, webvtt, hdmv_pgs_subtitle, dvd_subtitle… for a track inside the video; srt, ass, ssa or vtt for a file.' }),
  language: Type.String({ description: "The track's language as the video tags it (ISO 639-2, such as eng), or as the file's name gives it (Film.en.srt, Film.zh-CN.ass); '' when unknown." }),
  title: Type.String({ description: "The track's title inside the video, or what the file's name says beyond its language (forced, SDH); '' when none." }),
  name: Type.String({ description: "The subtitle file's name; '' for a track inside the video." }),
  file_id: Type.String({ description: "The subtitle file's id; '' for a track inside the video." }),
  default: Type.Boolean({ description: 'The video marks the track as its default.' }),
  forced: Type.Boolean({ description: 'The video marks the track as forced (foreign dialogue only).' }),
  link: Type.Object(
    {
      url: Type.String({ description: "The signed WebVTT link (GET, no token), for a <track>; '' for an image track." }),
      expire: Type.String({ description: "When the link stops working (RFC 3339); '' without a link." }),
    },
    { description: 'Where the WebVTT is.' },
  ),
});
export type SubtitleTrack = Static<typeof SubtitleTrackSchema>;

const SignedQuery = Type.Object({
  u: Type.Optional(Type.String({ maxLength: 128, description: 'The id of the account the link was made for.' })),
  e: Type.Optional(Type.String({ maxLength: 20, description: 'When the link expires: Unix time in seconds.' })),
  s: Type.Optional(Type.String({ maxLength: 128, description: 'The signature (base64url) over the account, the video, the track and the expiry.' })),
});

export const BURN_STATES = ['running', 'ready', 'failed'] as const;

export const SubtitleBurnSchema = Type.Object({
  track_id: Type.String({ description: 'The image track burned in (s and its stream index).' }),
  state: StringEnum(BURN_STATES, {
    description: 'running: being made (ask again in a few seconds); ready: link plays it; failed: it could not be made (message says why).',
  }),
  message: Type.String({ description: "Why it failed; '' otherwise." }),
  link: Type.Object(
    {
      url: Type.String({ description: "The signed MP4 link (GET, no token, Range), for a <video>; '' until ready." }),
      expire: Type.String({ description: "When the link stops working (RFC 3339); '' without a link." }),
    },
    { description: 'Where the video with the subtitles in its picture is.' },
  ),
});
export type SubtitleBurn = Static<typeof SubtitleBurnSchema>;

export const subtitlesRoutes = {
  listSubtitles: route({
    method: 'GET',
    path: '/drive/v1/files/:id/subtitles',
    tag,
    summary: "List a video's subtitles",
    description:
      'The subtitle tracks inside the video (text and image), then subtitle files (.srt, .ass, .ssa, .vtt) in the same folder whose name is the video\'s without its extension, optionally with a language (Film.srt, Film.en.srt, Film.zh-CN.ass), then the file named by file_id (a subtitle file picked from the drive). Text tracks carry a signed WebVTT link; tracks inside the video are converted on first request (the list starts the conversion) and kept.',
    auth: 'user',
    params: Type.Object({ id: Id }),
    query: Type.Object({
      file_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A subtitle file of yours to add to the list (.srt, .ass, .ssa or .vtt).' })),
    }),
    response: Type.Object({ tracks: Type.Array(SubtitleTrackSchema) }),
    errors: {
      file_not_found: 'No such video of yours (trashed, not finished, or not a video), or file_id is not one of your live files.',
      invalid_argument: 'file_id names a file that is not a subtitle file (.srt, .ass, .ssa or .vtt).',
    },
  }),
  getSubtitleVtt: route({
    method: 'GET',
    path: '/drive/v1/subtitles/:fileId/:trackId',
    tag,
    summary: 'Get a subtitle track as WebVTT',
    description:
      'The target of a track\'s link: the track as WebVTT (text/vtt, UTF-8, nosniff), cue text cleaned of markup (ASS override tags dropped; only <b>, <i> and <u> kept, everything else escaped), cue settings dropped. A file not in UTF-8 is read in the legacy encoding of its language, else of the request\'s Accept-Language. If-None-Match with the ETag answers 304.',
    auth: 'signed-link',
    params: Type.Object({
      fileId: Id,
      trackId: Type.String({ maxLength: 80, description: 'The track id of the list (s2, f<file id>).' }),
    }),
    query: SignedQuery,
    response: { raw: true, types: ['text/vtt'], description: 'The WebVTT.' },
    errors: {
      file_not_found: 'The link is malformed, tampered with or expired, the video or subtitle file is gone, or the video has no such text track.',
      file_size_too_large: 'The subtitle file is larger than 8 MiB.',
      unavailable: 'The track cannot be converted right now (the media tools are busy or the bytes are out of reach); try again.',
    },
  }),
  burnSubtitles: route({
    method: 'POST',
    path: '/drive/v1/files/:id/subtitles/:trackId/burn',
    tag,
    summary: 'Burn an image subtitle track into the picture',
    description:
      'Starts (once) making a copy of the video with the image subtitle track (PGS, VobSub, DVB) drawn into the picture: H.264 and AAC in MP4, at most 720 lines high, kept with the video\'s other media. Answers where it stands; ask again (the same call) until state is ready or failed. The result is kept per content, so any video with the same bytes answers ready at once.',
    auth: 'user',
    params: Type.Object({
      id: Id,
      trackId: Type.String({ maxLength: 80, description: 'The image track id of the list (s3).' }),
    }),
    response: SubtitleBurnSchema,
    errors: {
      file_not_found: 'No such video of yours (trashed, not finished, or not a video).',
      invalid_argument: 'trackId is not an image subtitle track of this video.',
      unavailable: 'The media tools cannot be reached right now; try again.',
    },
  }),
  getBurnedVideo: route({
    method: 'GET',
    path: '/drive/v1/subtitles/:fileId/:trackId/burned',
    tag,
    summary: 'Get a video with an image subtitle track burned in',
    description: 'The target of a burn-in\'s link: the MP4 (video/mp4, Range, ETag).',
    auth: 'signed-link',
    params: Type.Object({
      fileId: Id,
      trackId: Type.String({ maxLength: 80, description: 'The image track id (s3).' }),
    }),
    query: SignedQuery,
    response: { raw: true, types: ['video/mp4'], description: 'The MP4.' },
    errors: {
      file_not_found: 'The link is malformed, tampered with or expired, the video is gone, or the burn-in is not ready.',
      invalid_argument: 'The requested range is not satisfiable.',
    },
  }),
};
