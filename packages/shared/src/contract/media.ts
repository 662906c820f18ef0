/**
 * Signed links to bytes: downloads, thumbnails, a video or audio file's original and its HLS renditions. The API hands
 * these out ready-made (web_content_link, thumbnail_link, medias[].link.url); a client follows them as they are.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { Id } from './files.js';

const tag = 'Media';

/**
 * The signature of a link. Optional in the schema so that a link missing a part answers like any other link that does
 * not hold (404 file_not_found) rather than as bad input.
 */
const Signature = {
  u: Type.Optional(Type.String({ maxLength: 128, description: 'The id of the account the link was made for.' })),
  e: Type.Optional(Type.String({ maxLength: 20, description: 'When the link expires: Unix time in seconds.' })),
  s: Type.Optional(Type.String({ maxLength: 128, description: 'The signature (base64url) over the account, the file and the expiry.' })),
};
const SignedQuery = Type.Object(Signature);
const FileIdParams = Type.Object({ fileId: Id });
const MediaId = Type.String({ maxLength: 40, description: 'A rendition: the media_id of an entry of `medias` that is not the original, such as 720p.' });

const LINK_GONE = 'The link is malformed, tampered with or expired, or the file is no longer there (deleted, trashed, not finished)';
const RANGE =
  'Range: one `bytes=` range (a suffix range `bytes=-N` too) answers 206 with Content-Range; several ranges, or an If-Range that does not match the ETag, answer the whole body; a range wholly past the end answers 416 invalid_argument with Content-Range: bytes */size. If-None-Match with the ETag answers 304.';
/** invalid_argument comes as bad input (400) and as a Range wholly past the end (416). */
export const BAD_RANGE = {
  status: [400, 416],
  when: 'A path part or query field is too long, repeated or holds a NUL (400); the Range header asks only for bytes past the end (416, with Content-Range: bytes */size).',
};
/** The download allowances of free accounts (HAUL_MONTHLY_DOWNLOAD_BYTES, HAUL_DAILY_DOWNLOAD_BYTES); JSON details in error_description. */
export const DOWNLOAD_MONTH =
  "The bytes asked for do not fit in what is left of this calendar month's download allowance of the account that pays (403); error_description is JSON: title, kind, limit, usage, needed, reset_at.";
/** Renditions above the free plan's resolution play for premium accounts only. */
const PREMIUM_QUALITY = "This quality is above the free plan's resolution (HAUL_FREE_MAX_RESOLUTION) and the account the link was made for is not premium (need_more_quota in `medias`).";
export const DOWNLOAD_DAY = "The same for today's download allowance (403).";

export const mediaRoutes = {
  downloadContent: route({
    method: 'GET',
    path: '/drive/v1/content/:id',
    tag,
    summary: "Download a file's bytes",
    description:
      `The target of a file's web_content_link: its bytes as an attachment under its name, for whoever holds the link, without a token. The link lasts a limited time and stops working when the file leaves the drive or the account signs out everywhere. ${RANGE} Types a browser could run as a page (HTML, SVG, XML, scripts) are sent as application/octet-stream. The bytes sent count against the download allowance of the account the link was made for.`,
    auth: 'signed-link',
    params: Type.Object({ id: Id }),
    query: SignedQuery,
    response: { raw: true, types: ['application/octet-stream', '*/*'], description: "The file's bytes (or the asked range) with its stored type, as an attachment." },
    errors: {
      file_not_found: `${LINK_GONE}, or the account signed out everywhere since the link was made.`,
      invalid_argument: BAD_RANGE,
      monthly_download_size_exceeded: DOWNLOAD_MONTH,
      daily_download_size_exceeded: DOWNLOAD_DAY,
    },
  }),
  getThumbnail: route({
    method: 'GET',
    path: '/drive/v1/thumbnails/:fileId',
    tag,
    summary: 'Get a thumbnail',
    description:
      "The target of a file's thumbnail_link: a picture of an image, of a frame of a video, or of a song's cover art, made on first request and kept. The link ends on a whole hour so that listings within the hour hand out the same URL; the answer may be cached (it never changes). If-None-Match with the ETag answers 304.",
    auth: 'signed-link',
    params: FileIdParams,
    query: Type.Object({
      size: Type.Optional(Type.String({ maxLength: 40, description: 'SIZE_SMALL (160 px), SIZE_MEDIUM (480 px, also any other value) or SIZE_LARGE (1280 px): the longer side at most.' })),
      ...Signature,
    }),
    response: { raw: true, types: ['image/webp'], description: 'The thumbnail.' },
    errors: {
      file_not_found: `${LINK_GONE}, or the file has no picture to show (a song without cover art, content that cannot be read, not media at all).`,
      unavailable: 'The thumbnail cannot be made right now (the media tools are busy or the bytes are out of reach); try again.',
    },
  }),
  getMediaOrigin: route({
    method: 'GET',
    path: '/drive/v1/media/:fileId/origin',
    tag,
    summary: "Play a video's or song's original",
    description: `The link of the original in \`medias\` (media_id "origin"): the file's bytes inline, for a player. ${RANGE}`,
    auth: 'signed-link',
    params: FileIdParams,
    query: SignedQuery,
    response: {
      raw: true,
      types: ['video/*', 'audio/*', 'application/octet-stream'],
      description: 'The bytes (or the asked range), with the video or audio type its name gives (application/octet-stream when none does).',
    },
    errors: {
      file_not_found: `${LINK_GONE}, or it is not a video or audio file.`,
      invalid_argument: BAD_RANGE,
    },
  }),
  getMediaPlaylist: route({
    method: 'GET',
    path: '/drive/v1/media/:fileId/:mediaId/index.m3u8',
    tag,
    summary: "Get a rendition's HLS playlist",
    description:
      'The link of a transcoded rendition in `medias`: its HLS media playlist, whose segment URLs carry the same signature. While the rendition is still being made the playlist grows (an EVENT playlist, not to be cached): players reload it until it ends.',
    auth: 'signed-link',
    params: Type.Object({ fileId: Id, mediaId: MediaId }),
    query: SignedQuery,
    response: { raw: true, types: ['application/vnd.apple.mpegurl'], description: 'The HLS media playlist.' },
    errors: {
      file_not_found: `${LINK_GONE}, it is not a video, or this quality does not exist, is not started yet or failed (the description says which).`,
      permission_denied: PREMIUM_QUALITY,
    },
  }),
  getMediaSegment: route({
    method: 'GET',
    path: '/drive/v1/media/:fileId/:mediaId/:segment',
    tag,
    summary: 'Get a segment of a rendition',
    description: `A segment the playlist names (init.mp4, then numbered .m4s fragments), with the playlist's signature; segments of a rendition still being made are served as soon as they are written. ${RANGE}`,
    auth: 'signed-link',
    params: Type.Object({
      fileId: Id,
      mediaId: MediaId,
      segment: Type.String({ maxLength: 40, description: 'init.mp4 or a numbered fragment such as 00001.m4s, as the playlist names it.' }),
    }),
    query: SignedQuery,
    response: { raw: true, types: ['video/mp4'], description: 'The fMP4 segment (or the asked range).' },
    errors: {
      file_not_found: `${LINK_GONE}, or the rendition has no such segment.`,
      permission_denied: PREMIUM_QUALITY,
      invalid_argument: BAD_RANGE,
    },
  }),
};
