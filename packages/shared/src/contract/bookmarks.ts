/**
 * Bookmarks: links a person kept to fetch later (from the URL checker, the cloud download dialog, the extension, or a
 * downloaded file's own link), with what a check found, fetched later as cloud downloads into a chosen folder.
 */
import { Type, type Static } from '@sinclair/typebox';
import { LIMITS } from '../constants.js';
import { DriveTaskSchema } from '../entities.js';
import { route } from './define.js';
import { Empty, StringEnum, TimeString } from './schema-kit.js';
import { URL_KINDS } from './url-check.js';

const tag = 'Bookmarks';

export const BOOKMARK_SOURCES = ['checker', 'dialog', 'extension', 'file'] as const;
export type BookmarkSource = (typeof BOOKMARK_SOURCES)[number];

const BookmarkId = Type.String({ minLength: 1, maxLength: 64 });
const BookmarkName = Type.String({ minLength: 1, maxLength: 255, description: 'What the list shows; trimmed, 1 to 255 characters.' });
const Ids = Type.Array(BookmarkId, { minItems: 1, maxItems: 100, description: 'Up to 100 bookmark ids of yours.' });

export const BookmarkSchema = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The link kept: http(s) or magnet.' }),
  name: Type.String(),
  kind: StringEnum(URL_KINDS, { description: "What the link holds: the check's answer, or guessed from the link when it was not checked." }),
  size: Type.String({ description: "Bytes, as a decimal string; '' when not known." }),
  mime_type: Type.String({ description: "'' when not known." }),
  checked_at: TimeString("When the link was checked (RFC 3339); '' when it was kept unchecked."),
  created_at: TimeString('When it was kept (RFC 3339); keeping the same link again moves it to now.'),
  source: StringEnum(BOOKMARK_SOURCES, { description: 'Where it was kept from.' }),
});
export type Bookmark = Static<typeof BookmarkSchema>;

/** What a check of the link found (POST /drive/v1/url:check), kept with the bookmark. */
const CheckResult = Type.Object({
  kind: StringEnum(URL_KINDS),
  name: Type.String({ maxLength: 1000 }),
  size: Type.String({ maxLength: 24, pattern: '^[0-9]*$' }),
  mime_type: Type.String({ maxLength: 255 }),
});

export const bookmarksRoutes = {
  listBookmarks: route({
    method: 'GET',
    path: '/drive/v1/bookmarks',
    tag,
    summary: 'List bookmarks',
    description: 'The account\'s bookmarks, the most recently kept first; `q` keeps those whose name or link contains it (any case).',
    auth: 'user',
    query: Type.Object({
      q: Type.Optional(Type.String({ maxLength: 200, description: 'Words to look for in the name or the link.' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax, description: 'Bookmarks a page (100 unless said).' })),
      page_token: Type.Optional(Type.String({ maxLength: 500 })),
    }),
    response: Type.Object({
      bookmarks: Type.Array(BookmarkSchema),
      next_page_token: Type.String({ description: "Pass as page_token for the next page; '' on the last page." }),
    }),
    errors: { invalid_argument: 'page_token did not come from this listing.' },
  }),
  createBookmark: route({
    method: 'POST',
    path: '/drive/v1/bookmarks',
    tag,
    summary: 'Keep a link for later',
    description:
      "Keeps an http(s) or magnet link. With `check` (what POST /drive/v1/url:check answered), its kind, name, size and type are kept with the time of the check; without it, the kind is guessed from the link and the name from its last part. Nothing is fetched and the link's server is not asked. Keeping a link kept already updates that bookmark (a given name or check replaces the old one) and moves it to the top.",
    auth: 'user',
    body: Type.Object({
      url: Type.String({ minLength: 1, maxLength: 20_000 }),
      name: Type.Optional(BookmarkName),
      source: StringEnum(BOOKMARK_SOURCES),
      check: Type.Optional(CheckResult),
    }),
    response: BookmarkSchema,
    errors: {
      invalid_argument: 'Not an http, https or magnet link, or a name that is empty or too long.',
      resource_exhausted: 'The account keeps the most bookmarks it may (10,000): delete some first.',
    },
    example: { url: 'https://example.com/film.mkv', source: 'checker', check: { kind: 'http', name: 'film.mkv', size: '1048576', mime_type: 'video/x-matroska' } },
  }),
  renameBookmark: route({
    method: 'PATCH',
    path: '/drive/v1/bookmarks/:id',
    tag,
    summary: 'Rename a bookmark',
    description: 'Changes the name the list shows and the file fetched from it is given.',
    auth: 'user',
    params: Type.Object({ id: BookmarkId }),
    body: Type.Object({ name: BookmarkName }),
    response: BookmarkSchema,
    errors: { file_not_found: 'No such bookmark of yours.', invalid_argument: 'The name is empty or too long.' },
    example: { name: 'Film' },
  }),
  deleteBookmarks: route({
    method: 'POST',
    path: '/drive/v1/bookmarks::delete',
    tag,
    summary: 'Delete bookmarks',
    description: 'Deletes bookmarks by id; the files fetched from them stay. All or nothing.',
    auth: 'user',
    body: Type.Object({ ids: Ids }),
    response: Empty,
    errors: { file_not_found: 'An id is not one of your bookmarks: nothing was deleted.' },
    example: { ids: ['…'] },
  }),
  fetchBookmarks: route({
    method: 'POST',
    path: '/drive/v1/bookmarks::fetch',
    tag,
    summary: 'Fetch bookmarks into a folder',
    description:
      "Adds one cloud download per bookmark into the folder `parent_id` ('' for the top of the drive), named as the bookmark is, as POST /drive/v1/files with UPLOAD_TYPE_URL would: the same daily and monthly limits, counted once for the lot. A torrent bookmark's .torrent file is read from its link first. The bookmarks stay. Refused as a whole when one cannot be added.",
    auth: 'user',
    body: Type.Object({ ids: Ids, parent_id: Type.String({ maxLength: 64 }) }),
    response: Type.Object({ tasks: Type.Array(DriveTaskSchema) }),
    errors: {
      file_not_found: 'An id is not one of your bookmarks, or the folder does not exist.',
      file_in_recycle_bin: 'The folder is in the trash.',
      invalid_argument: "A torrent bookmark's link no longer serves a valid .torrent file, or a link is refused.",
      monthly_cloud_download_size_exceeded: "The month's cloud download allowance is used up.",
      task_daily_create_limit: "Today's cloud downloads are used up (all of these would not fit).",
    },
    example: { ids: ['…', '…'], parent_id: '' },
  }),
};
