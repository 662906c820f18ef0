/**
 * Play while it downloads: a song or a video inside a torrent that is still downloading plays from the pieces already
 * there, through a signed link (a media element sends no token); seeking asks the engine for the pieces it needs.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';

const tag = 'Tasks';

const PlayableSchema = Type.Object({
  index: Type.Integer({ minimum: 0, description: "The file's index in the torrent (what file_ids names)." }),
  name: Type.String({ description: "The file's name (the last part of its path in the torrent, made safe)." }),
  path: Type.String({ description: 'Its path inside the torrent, made safe, "/"-separated.' }),
  size: Type.String({ description: 'Bytes.' }),
  mime_type: Type.String(),
  kind: Type.Union([Type.Literal('video'), Type.Literal('audio')]),
  received: Type.String({ description: 'Bytes of it verified so far.' }),
  url: Type.String({ description: 'The signed link that plays it (GET, Range; no token): it works for HAUL_DOWNLOAD_LINK_TTL.' }),
});

export const torrentPlayRoutes = {
  listPlayableTaskFiles: route({
    method: 'GET',
    path: '/drive/v1/tasks/:id/playable',
    tag,
    summary: 'Songs and videos of a torrent still downloading',
    description:
      "The chosen songs and videos of one's torrent task that has not finished (running, waiting or paused), each with a link that plays it from the pieces already there. Empty while the torrent's file list has not arrived. A finished task's files are in the drive: play them there.",
    auth: 'user',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: Type.Object({ files: Type.Array(PlayableSchema) }),
    errors: {
      file_not_found: 'No such task of yours.',
      failed_precondition: 'The task is not a torrent, or it has finished (its files are in the drive).',
    },
  }),
  playTaskFile: route({
    method: 'GET',
    path: '/drive/v1/tasks/:id/play/:index/:name',
    tag,
    summary: 'Play a file of a torrent still downloading',
    description:
      "The target of a playable link: the file's bytes, with Range, sent as their pieces are verified. A range whose pieces are not in yet waits for them, and the engine is asked to fetch them first (the built-in engine; a qBittorrent daemon fetches in order, each file's first and last pieces first). A file already whole in the store (landed, or the task finished while it played) comes from there, so a link goes on working after the task finishes. Not counted as a download: it is playback, as the drive's own player.",
    auth: 'signed-link',
    params: Type.Object({
      id: Type.String({ minLength: 1, maxLength: 64 }),
      index: Type.String({ pattern: '^[0-9]{1,6}$' }),
      name: Type.String({ minLength: 1, maxLength: 255 }),
    }),
    query: Type.Object({
      e: Type.Optional(Type.String({ maxLength: 20, description: 'Expiry (Unix seconds).' })),
      s: Type.Optional(Type.String({ maxLength: 128, description: 'The signature (base64url).' })),
    }),
    response: { raw: true, types: ['video/*', 'audio/*'], description: 'The bytes asked for (206 with a Range).' },
    errors: {
      file_not_found: 'The link is malformed, tampered with or expired, the account signed out everywhere, or the task is gone.',
      invalid_argument: 'The range cannot be satisfied (416).',
    },
  }),
};
