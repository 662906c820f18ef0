/** The URL checker: what a link holds, before anything is fetched for it (the checker page, the dialog, the extension). */
import { Type, type Static } from '@sinclair/typebox';
import { route } from './define.js';
import { StringEnum } from './schema-kit.js';
import { TorrentInfoSchema } from './tasks.js';

const tag = 'Tasks';

export const URL_KINDS = ['http', 'magnet', 'torrent'] as const;

export const UrlCheckSchema = Type.Object({
  kind: StringEnum(URL_KINDS, {
    description: 'http: a file on a web server; magnet: a magnet link; torrent: a .torrent file behind an http link.',
  }),
  url: Type.String({ description: 'The link as checked: an http link after its redirects; a magnet link as given.' }),
  name: Type.String({ description: 'The name the file (or the torrent) will get in the drive.' }),
  size: Type.String({ description: "Bytes, as a decimal string; '' when the server does not say." }),
  mime_type: Type.String({ description: "What the web server says it is; '' when it does not say (and for torrents)." }),
  instant: Type.Boolean({ description: 'This server holds the content already: adding it completes at once, without a transfer.' }),
  torrent: Type.Optional(TorrentInfoSchema),
  torrent_file: Type.Optional(
    Type.String({
      description: 'kind torrent: the .torrent file, base64, to add as POST /drive/v1/files `torrent` (with file_ids to keep some files).',
    }),
  ),
});

export const urlCheckRoutes = {
  checkUrl: route({
    method: 'POST',
    path: '/drive/v1/url::check',
    tag,
    summary: 'Check what a link holds',
    description:
      "An http link's name, size and type (asked of its server with HEAD, or a one-byte ranged GET when HEAD says nothing), a magnet link's or a .torrent link's name, size and files (a magnet asks peers, up to 30 seconds), and whether this server holds it already. Nothing is stored. Open to visitors who are signed out, within a small limit per network; signed in, a larger limit per account. The same network rules as cloud downloads apply.",
    auth: 'public',
    body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 100_000, description: 'An http(s) or magnet link.' }) }),
    response: UrlCheckSchema,
    errors: {
      invalid_argument:
        "Not an http, https or magnet link; a private or reserved address; the server answered with an error or not in time; a .torrent that is not valid; no peer gave a magnet's file list in time.",
      too_many_requests: 'Too many checks from this network (signed out) or this account; `retry_after_seconds` says when to try again.',
    },
    example: { url: 'https://example.com/film.mkv' },
  }),
};

export type UrlCheck = Static<typeof UrlCheckSchema>;
