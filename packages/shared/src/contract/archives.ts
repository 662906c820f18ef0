/** Cloud decompression: list an archive stored in the drive, unpack all or some of it as a task, follow the task. */
import { Type, type Static } from '@sinclair/typebox';
import { DriveTaskSchema } from '../entities.js';
import { route } from './define.js';

const tag = 'Archives';

const AccessTokenQuery = Type.Object({
  access_token: Type.Optional(Type.String({ maxLength: 4000, description: 'The access token, for callers that cannot send the Authorization header.' })),
});

const Password = Type.String({
  maxLength: 512,
  description: 'The archive password, when it has one. Used for this call and the task it starts, never logged; kept sealed only until the task ends.',
});

const Encoding = Type.String({
  maxLength: 20,
  description: "How to read entry names a zip stored without UTF-8 (names that are valid UTF-8 are read as UTF-8 whatever this says): '' or cp437 (the zip format's rule), shift_jis, gbk, big5, euc-kr, cp866, cp1251, cp1252.",
});

export const ArchiveEntrySchema = Type.Object({
  path: Type.String({ description: "The entry's path inside the archive, '/'-separated, as listed: what `paths` of decompress names." }),
  name: Type.String({ description: 'The last segment of the path.' }),
  kind: Type.Union([Type.Literal('drive#file'), Type.Literal('drive#folder')]),
  size: Type.String({ description: 'Bytes once unpacked, as a decimal string ("0" for a folder).' }),
  modified_time: Type.String({ description: "RFC 3339, or '' when the archive does not say." }),
  encrypted: Type.Boolean({ description: 'The entry needs the password to unpack.' }),
  skipped: Type.String({
    description: "Why the entry will not be unpacked ('' when it will): link (a symbolic or hard link), unsafe_path (its path leaves the folder), duplicate (another entry has the same path, or its name cannot be told apart from another's).",
  }),
});
export type ArchiveEntry = Static<typeof ArchiveEntrySchema>;

export const ArchiveListSchema = Type.Object({
  status: Type.Literal('OK'),
  file_id: Type.String(),
  file_name: Type.String(),
  archive_type: Type.String({ description: "The format 7-Zip recognised: zip, 7z, Rar, Rar5, tar, …" }),
  encrypted_headers: Type.Boolean({ description: 'The listing itself needed the password.' }),
  has_encrypted: Type.Boolean({ description: 'At least one entry needs the password to unpack.' }),
  total_size: Type.String({ description: 'Bytes of every file entry once unpacked, as a decimal string.' }),
  folder_name: Type.String({ description: 'The folder the archive unpacks into by default.' }),
  files: Type.Array(ArchiveEntrySchema, { description: 'Every entry, in the order of the archive; folders the archive only implies are listed too.' }),
});

export const DecompressProgressSchema = Type.Object({
  task: DriveTaskSchema,
  total_entries: Type.Integer({ description: 'Entries the task unpacks.' }),
  done_entries: Type.Integer({ description: 'Entries unpacked so far.' }),
  total_size: Type.String(),
  done_size: Type.String(),
});

const FileIdBody = {
  file_id: Type.String({ minLength: 1, maxLength: 64, description: 'The archive: a file of yours.' }),
  password: Type.Optional(Password),
  encoding: Type.Optional(Encoding),
};

const archiveErrors = {
  file_not_found: 'No such file of yours.',
  file_in_recycle_bin: 'The archive is in the trash.',
  archive_password_wrong: 'The archive (or an entry chosen) needs a password, and none or a wrong one was given.',
  permission_denied: 'The operator made cloud decompression a premium benefit, and the account is not premium.',
} as const;

export const archivesRoutes = {
  listArchive: route({
    method: 'POST',
    path: '/decompress/v1/list',
    tag,
    summary: "List an archive's entries",
    description:
      'What an archive in the drive holds, without unpacking anything: paths, sizes, dates and which entries are encrypted. zip (ZipCrypto and AES), 7z, RAR 4 and 5, tar and compressed tar. An archive whose listing is encrypted needs the password here.',
    auth: 'user',
    appScope: 'pan',
    query: AccessTokenQuery,
    body: Type.Object(FileIdBody),
    response: ArchiveListSchema,
    errors: {
      ...archiveErrors,
      invalid_argument: 'The file is not an archive Haul can open, it is damaged, or it holds more entries than Haul unpacks.',
    },
    example: { file_id: '…', password: '' },
  }),
  decompress: route({
    method: 'POST',
    path: '/decompress/v1/decompress',
    tag,
    summary: 'Unpack an archive',
    description:
      "Starts a task (type decompress) that unpacks the chosen entries (paths; a folder's path takes everything under it; none: all) into parent_id, or by default into a new folder named after the archive beside it. Nothing shows in the drive until every entry is unpacked; then the task's file_id is the folder that received them. Links, paths that leave the folder and duplicates are skipped. Follow it with GET /decompress/v1/progress or the task list.",
    auth: 'user',
    appScope: 'pan',
    query: AccessTokenQuery,
    body: Type.Object({
      ...FileIdBody,
      paths: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 100_000, description: 'Entry paths as listed; none: every entry.' })),
      parent_id: Type.Optional(Type.String({ maxLength: 64, description: "The folder to unpack into ('' the root). Absent: a new folder named after the archive, beside it." })),
    }),
    response: Type.Object({ task: DriveTaskSchema }),
    errors: {
      ...archiveErrors,
      invalid_argument: 'Not an archive Haul can open, a path that is not in it, a target that is not a folder, or an archive that unpacks to more than Haul allows (entries, bytes, or bytes for its size).',
      file_space_not_enough: 'What the entries unpack to does not fit in the space left.',
    },
    example: { file_id: '…', password: 'secret', paths: ['docs/'], parent_id: '' },
  }),
  decompressProgress: route({
    method: 'GET',
    path: '/decompress/v1/progress',
    tag,
    summary: 'Follow an unpacking task',
    description: 'The task with its phase and progress, and how many entries and bytes are done.',
    auth: 'user',
    appScope: 'pan',
    query: Type.Object({
      task_id: Type.String({ minLength: 1, maxLength: 64 }),
      access_token: AccessTokenQuery.properties.access_token,
    }),
    response: DecompressProgressSchema,
    errors: { file_not_found: 'No such unpacking task of yours.' },
  }),
};
