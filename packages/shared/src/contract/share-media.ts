/**
 * A shared video's HLS renditions for the share's visitors, signed like a share's download link (share, pass code,
 * file, expiry, visitor). A visitor whose playback is limited gets a playlist that ends at the preview's allowed point.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { Id } from './files.js';

const tag = 'Shares';
const Query = Type.Object({
  share_id: Type.Optional(Type.String({ maxLength: 64, description: 'The share the link was made through.' })),
  e: Type.Optional(Type.String({ maxLength: 20, description: 'When the link expires: Unix time in seconds.' })),
  s: Type.Optional(Type.String({ maxLength: 200, description: 'The signature over the share, its pass code, the file, the expiry and the visitor.' })),
  p: Type.Optional(Type.String({ maxLength: 40, description: 'The signed-in visitor the link was made for; absent: a visitor without an account.' })),
});
const MediaId = Type.String({ maxLength: 40, description: 'A rendition, such as 720p.' });
const GONE = 'The link is malformed, tampered with or expired, the share is no longer open, the file is no longer in it, or the rendition (or segment) does not exist or is not ready.';
const WHO =
  'Limited visitors (everyone but the owner and premium accounts) get the preview only: the larger of HAUL_SHARE_PREVIEW_SECONDS and HAUL_SHARE_PREVIEW_FRACTION of the duration; renditions above the free plan\'s resolution need a premium visitor (or an owner who is premium).';

export const shareMediaRoutes = {
  getShareMediaPlaylist: route({
    method: 'GET',
    path: '/drive/v1/share/media/:fileId/:mediaId/index.m3u8',
    tag,
    summary: "Get a shared video's HLS playlist",
    description: `The link of a rendition in share/file_info's \`medias\`. ${WHO} A limited visitor's playlist names only the segments that start before the allowed point and ends there.`,
    auth: 'signed-link',
    params: Type.Object({ fileId: Id, mediaId: MediaId }),
    query: Query,
    response: { raw: true, types: ['application/vnd.apple.mpegurl'], description: 'The HLS media playlist.' },
    errors: {
      file_not_found: GONE,
      permission_denied: 'This quality is above the free plan\'s resolution and the visitor is not premium.',
    },
  }),
  getShareMediaSegment: route({
    method: 'GET',
    path: '/drive/v1/share/media/:fileId/:mediaId/:segment',
    tag,
    summary: 'Get a segment of a shared rendition',
    description: `A segment the share's playlist names, with its signature. ${WHO} Range as for the drive's segments.`,
    auth: 'signed-link',
    params: Type.Object({
      fileId: Id,
      mediaId: MediaId,
      segment: Type.String({ maxLength: 40, description: 'init.mp4 or a numbered fragment such as 00001.m4s.' }),
    }),
    query: Query,
    response: { raw: true, types: ['video/mp4'], description: 'The fMP4 segment (or the asked range).' },
    errors: {
      file_not_found: GONE,
      permission_denied: 'The segment starts past the preview of a limited visitor, or the quality needs a premium visitor.',
      invalid_argument: { status: [400, 416], when: 'A path part or query field is too long (400); the Range header asks only for bytes past the end (416).' },
    },
  }),
};
