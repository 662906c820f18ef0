/** The drive's files and folders: list, read, create, rename, star, move, copy, trash and delete. */
import { Type, type Static } from '@sinclair/typebox';
import { LIMITS, SORT_ORDERS, THUMBNAIL_SIZES } from '../constants.js';
import { BreadcrumbSchema, DriveFileSchema, DriveTaskSchema, FileListSchema } from '../entities.js';
import { route } from './define.js';
import { NullableObject } from './schema-kit.js';

const tag = 'Files';
export const Id = Type.String({ minLength: 1, maxLength: 64, description: 'A file or folder id.' });
export const ParentId = Type.String({ maxLength: 64, description: "A folder id; '' is the top level." });
export const Ids = Type.Array(Id, { minItems: 1, maxItems: LIMITS.batchMaxIds });
export const IdParams = Type.Object({ id: Id });
const IdsBody = Type.Object({ ids: Ids });
const ToBody = Type.Object({ ids: Ids, to: Type.Object({ parent_id: ParentId }) });
const ThumbnailSize = Type.Optional(Type.String({ maxLength: 40, description: `One of ${THUMBNAIL_SIZES.join(', ')}.` }));

/** What a batch call answers: the id of the task that records it. */
export const BatchAnswerSchema = Type.Object({ task_id: Type.String() });
export const CopyAnswerSchema = Type.Object({ task_id: Type.String(), file_ids: Type.Array(Type.String(), { description: 'Ids of the copies, in the order of `ids`.' }) });

/** The fields of an upload (POST files with upload_type UPLOAD_TYPE_RESUMABLE). */
export const UploadFields = {
  size: Type.Optional(Type.Union([Type.String({ pattern: '^\\d{1,15}$' }), Type.Integer({ minimum: 0 })], { description: 'Bytes of the file.' })),
  hash: Type.Optional(Type.String({ maxLength: 128, description: 'The 64-digit hex BLAKE3 hash of the file: with it the upload may be instant, after proof_of_possession (files over 192 KiB; smaller ones only when the account holds the same content already).' })),
  resumable: Type.Optional(Type.Object({ provider: Type.Optional(Type.String({ maxLength: 40 })) })),
  proof: Type.Optional(Type.Object({ challenge: Type.String({ maxLength: 2000 }), answer: Type.String({ maxLength: 128 }) }, { description: 'The answer to proof_of_possession: BLAKE3 of the asked byte ranges.' })),
  id: Type.Optional(Type.String({ maxLength: 64, description: "The client's id of the upload: asked again, the same upload answers." })),
  replace: Type.Optional(
    Type.Boolean({
      description:
        'When the file is placed, a live file of the same name in the folder goes to the trash (restorable) and this one takes its name. Without it (or with a folder of that name) the new file gets a suffix: "name(1)".',
    }),
  ),
};

/** POST files:nameClashes: which of some names are taken among a folder's live items. */
const NameClashesBody = Type.Object({
  parent_id: ParentId,
  names: Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { minItems: 1, maxItems: LIMITS.batchMaxIds, description: 'Names to look for.' }),
});
const NameClashSchema = Type.Object({ name: Type.String(), id: Type.String(), kind: Type.String({ description: 'drive#file or drive#folder.' }) });

export const CreateFileBodySchema = Type.Object({
  kind: Type.String({ maxLength: 40, description: '"drive#folder" for a folder; "drive#file" with an upload_type for an upload or a cloud download.' }),
  name: Type.Optional(Type.String({ maxLength: 1024 })),
  parent_id: Type.Optional(ParentId),
  url: Type.Optional(Type.Object({ url: Type.String({ maxLength: 100_000, description: 'HTTP(S) links and magnet links, one a line.' }) })),
  credentials: Type.Optional(
    Type.Object(
      {
        username: Type.Optional(Type.String({ maxLength: 1024 })),
        password: Type.Optional(Type.String({ maxLength: 1024 })),
        headers: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 8192 }), { description: 'Only Authorization, Cookie, Referer and User-Agent; any other name is a 400.' })),
      },
      { description: "Cloud download of http(s) links: HTTP Basic sign-in and extra headers, sent to each link's origin (not after a redirect to another origin for Authorization and Cookie). Kept sealed while the task runs, never shown back, dropped when it ends." },
    ),
  ),
  torrent: Type.Optional(Type.String({ maxLength: 7_000_000, description: 'A .torrent file, base64 (cloud download).' })),
  params: Type.Optional(Type.Object({ file_ids: Type.Optional(Type.String({ maxLength: 1_000_000, description: 'Indexes of the torrent files to fetch, comma-separated.' })) })),
  folder_type: Type.Optional(Type.String({ maxLength: 40 })),
  upload_type: Type.Optional(Type.String({ maxLength: 40, description: 'UPLOAD_TYPE_RESUMABLE (an upload) or UPLOAD_TYPE_URL (a cloud download).' })),
  ...UploadFields,
});

/** Where a resumable upload sends its bytes (tus). */
export const ResumableSchema = Type.Object({
  kind: Type.Literal('drive#resumable'),
  provider: Type.Literal('PROVIDER_TUS'),
  params: Type.Object({ key: Type.String(), upload_url: Type.String({ description: 'The tus upload URL: PATCH the bytes there.' }), expires_at: Type.String() }),
});

export const CreateFileAnswerSchema = Type.Object({
  upload_type: Type.String({ description: "UPLOAD_TYPE_RESUMABLE, UPLOAD_TYPE_URL, or '' for a folder." }),
  file: NullableObject(DriveFileSchema),
  task: NullableObject(DriveTaskSchema),
  resumable: Type.Optional(NullableObject(ResumableSchema)),
  tasks: Type.Optional(Type.Array(DriveTaskSchema, { description: 'A cloud download: one task a link.' })),
  proof_of_possession: Type.Optional(
    Type.Object(
      { challenge: Type.String(), ranges: Type.Array(Type.Object({ start: Type.Integer(), end: Type.Integer() })) },
      { description: 'Asked for every file over 192 KiB declared with a hash (and a smaller one whose content the account holds), whether or not its content is stored: answer with BLAKE3 of these byte ranges (end exclusive) in `proof`. When the content is stored and the answer is right the file is placed at once; otherwise the answer is an ordinary resumable upload.' },
    ),
  ),
});

export const filesRoutes = {
  listFiles: route({
    method: 'GET',
    path: '/drive/v1/files',
    tag,
    summary: 'List files',
    description: 'A page of a folder\'s items, the trash, or a search (parent_id "*" with filters). Ordered folders first unless `order` says otherwise.',
    auth: 'user',
    query: Type.Object({
      parent_id: Type.Optional(ParentId),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax })),
      page_token: Type.Optional(Type.String({ maxLength: 2000 })),
      filters: Type.Optional(Type.String({ maxLength: 20000, description: 'JSON: {"trashed":{"eq":true}}, {"system_tag":{"in":"STAR"}}, {"name":{"contains":"…"}}, {"modified_time":{"gt":"…"}}, {"kind":{"eq":"drive#folder"}}, {"mime_type":{"prefix":"video/"}}, {"platform":{"eq":"youtube"}}, {"folder_id":{"eq":"<folder id>"}} (a search inside that folder and every folder below it, up to 10,000 folders)…' })),
      order: Type.Optional(Type.String({ maxLength: 40, description: `One of ${SORT_ORDERS.join(', ')}.` })),
      thumbnail_size: ThumbnailSize,
      with_audit: Type.Optional(Type.String({ maxLength: 10 })),
    }),
    response: FileListSchema,
    errors: {
      file_not_found: 'The folder (parent_id or filters.folder_id) does not exist or is not yours.',
      invalid_argument: 'filters or order is not valid, filters.folder_id is a file or a trashed folder, or holds more than 10,000 folders.',
    },
  }),
  getFile: route({
    method: 'GET',
    path: '/drive/v1/files/:id',
    tag,
    summary: 'Get a file',
    description: 'One file with a signed download link; for video and audio, its ways to play (`medias`). usage=PLAY starts the transcode of a video that needs one.',
    auth: 'user',
    params: IdParams,
    query: Type.Object({ usage: Type.Optional(Type.String({ maxLength: 40 })), thumbnail_size: ThumbnailSize }),
    response: DriveFileSchema,
    errors: { file_not_found: 'No such file of yours.' },
  }),
  fileAncestors: route({
    method: 'GET',
    path: '/drive/v1/files/:id/ancestors',
    tag,
    summary: 'Folders above a file',
    description: 'The path from the top level down to the item, for breadcrumbs.',
    auth: 'user',
    params: IdParams,
    response: Type.Object({ ancestors: Type.Array(BreadcrumbSchema) }),
    errors: { file_not_found: 'No such file of yours.' },
  }),
  createFile: route({
    method: 'POST',
    path: '/drive/v1/files',
    tag,
    summary: 'Create a folder, start an upload or add a cloud download',
    description:
      'kind "drive#folder": a folder. kind "drive#file" with upload_type UPLOAD_TYPE_RESUMABLE: an upload (instant when the hash is stored already, after proof of possession; otherwise a tus URL). upload_type UPLOAD_TYPE_URL: a cloud download of HTTP links, magnet links or a .torrent file.',
    auth: 'user',
    body: CreateFileBodySchema,
    response: CreateFileAnswerSchema,
    errors: {
      file_not_found: 'The parent folder does not exist.',
      file_duplicated_name: 'A folder of that name exists there.',
      file_in_recycle_bin: 'The parent folder is in the trash.',
      file_space_not_enough: 'The file does not fit in the storage left.',
      file_size_too_large: 'The file is larger than the plan allows.',
      monthly_upload_size_exceeded: "The month's upload allowance is used up.",
      monthly_cloud_download_size_exceeded: "The month's cloud download allowance is used up.",
      task_daily_create_limit: "Today's cloud downloads are used up.",
      too_many_requests: 'Too many attempts: try again later.',
    },
    example: { kind: 'drive#folder', name: 'Holiday', parent_id: '' },
  }),
  updateFile: route({
    method: 'PATCH',
    path: '/drive/v1/files/:id',
    tag,
    summary: 'Rename or star a file',
    description: 'Changes the name and/or the star of one item.',
    auth: 'user',
    params: IdParams,
    body: Type.Object({ name: Type.Optional(Type.String({ maxLength: 1024 })), star: Type.Optional(Type.Union([Type.Integer(), Type.Boolean()])) }),
    response: DriveFileSchema,
    errors: { file_not_found: 'No such file of yours.', file_duplicated_name: 'Another item there has that name.', file_in_recycle_bin: 'The item is in the trash.' },
    example: { name: 'Holiday 2026' },
  }),
  batchTrash: route({ method: 'POST', path: '/drive/v1/files::batchTrash', tag, summary: 'Move to the trash', description: 'Moves items (and what folders hold) to the trash.', auth: 'user', body: IdsBody, response: BatchAnswerSchema, errors: { file_not_found: 'An id is not one of your files.' } }),
  batchUntrash: route({ method: 'POST', path: '/drive/v1/files::batchUntrash', tag, summary: 'Restore from the trash', description: 'Puts trashed items back where they were (a name taken there gets a suffix).', auth: 'user', body: IdsBody, response: BatchAnswerSchema, errors: { file_not_found: 'An id is not one of your files.' } }),
  batchDelete: route({ method: 'POST', path: '/drive/v1/files::batchDelete', tag, summary: 'Delete for good', description: 'Deletes items and what folders hold; no undo.', auth: 'user', body: IdsBody, response: BatchAnswerSchema, errors: { file_not_found: 'An id is not one of your files.' } }),
  batchMove: route({
    method: 'POST', path: '/drive/v1/files::batchMove', tag, summary: 'Move', description: 'Moves items into a folder.', auth: 'user', body: ToBody, response: BatchAnswerSchema,
    errors: { file_not_found: 'An id or the folder is not yours.', file_duplicated_name: 'The folder holds an item of that name.', invalid_argument: 'A folder cannot go into itself or below itself.', file_in_recycle_bin: 'The folder is in the trash.' },
    example: { ids: ['…'], to: { parent_id: '' } },
  }),
  batchCopy: route({
    method: 'POST', path: '/drive/v1/files::batchCopy', tag, summary: 'Copy', description: 'Copies items into a folder (a name taken there gets a suffix).', auth: 'user', body: ToBody, response: CopyAnswerSchema,
    errors: { file_not_found: 'An id or the folder is not yours.', file_space_not_enough: 'The copies do not fit in the storage left.', invalid_argument: 'A folder cannot go into itself or below itself.', file_in_recycle_bin: 'The folder is in the trash.' },
  }),
  star: route({ method: 'POST', path: '/drive/v1/files::star', tag, summary: 'Star', description: 'Stars items.', auth: 'user', body: IdsBody, response: BatchAnswerSchema, errors: { file_not_found: 'An id is not one of your files.' } }),
  unstar: route({ method: 'POST', path: '/drive/v1/files::unstar', tag, summary: 'Unstar', description: 'Takes the star off items.', auth: 'user', body: IdsBody, response: BatchAnswerSchema, errors: { file_not_found: 'An id is not one of your files.' } }),
  nameClashes: route({
    method: 'POST',
    path: '/drive/v1/files::nameClashes',
    tag,
    summary: 'Names taken in a folder',
    description:
      'Before an upload: which of the given names already belong to a live item of the folder (trashed items do not count), so a client can ask whether to replace, keep both or skip. Changes nothing.',
    auth: 'user',
    body: NameClashesBody,
    response: Type.Object({ clashes: Type.Array(NameClashSchema, { description: 'The items that hold one of the names, in no particular order.' }) }),
    errors: { file_not_found: 'The folder does not exist or is not yours.', file_in_recycle_bin: 'The folder is in the trash.' },
    example: { parent_id: '', names: ['b.jpg', 'notes.txt'] },
  }),
  emptyTrash: route({ method: 'PATCH', path: '/drive/v1/files/trash::empty', tag, summary: 'Empty the trash', description: 'Deletes everything in the trash for good.', auth: 'user', response: BatchAnswerSchema, errors: {} }),
};

export type CreateFileAnswer = Static<typeof CreateFileAnswerSchema>;
export type CreateFileBody = Static<typeof CreateFileBodySchema>;
export type BatchAnswer = Static<typeof BatchAnswerSchema>;
