/** About: the account's storage and transfer quotas. */
import { Type } from '@sinclair/typebox';
import { QUOTA_KINDS } from '../constants.js';
import { AboutSchema } from '../entities.js';
import { route } from './define.js';
import { DecimalString, StringEnum } from './schema-kit.js';

/** The kinds the storage page breaks used space into; the trash is apart from them. */
export const STORAGE_KINDS = ['video', 'image', 'audio', 'document', 'archive', 'other'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

const SpaceSchema = Type.Object({
  size: DecimalString('Bytes.'),
  count: Type.Integer({ description: 'Files.' }),
});

const tag = 'About';

export const aboutRoutes = {
  getAbout: route({
    method: 'GET',
    path: '/drive/v1/about',
    tag,
    summary: 'Storage and quotas',
    description:
      "The account's storage limit and use (the trash counts), and, for each quota kind named in `with_quotas`, the period's limit, use and when it starts over: bytes per calendar month in the server's time zone (`upload_size_month`, `cloud_download_size_month`, `download_size_month`), and for `cloud_download` the cloud downloads added today against the daily limit. Kinds this server does not limit answer as unlimited; names it does not know are left out.",
    auth: 'user',
    query: Type.Object({
      with_quotas: Type.Optional(Type.String({ maxLength: 500, description: `Quota kinds, comma-separated: ${QUOTA_KINDS.join(', ')}.` })),
    }),
    response: AboutSchema,
    errors: { file_not_found: 'The account was deleted while the request ran.' },
  }),
  storageByKind: route({
    method: 'GET',
    path: '/drive/v1/about/storage',
    tag,
    summary: 'Storage by kind',
    description:
      "The account's used space by kind of file (by extension, else MIME type): videos, images, audio, documents (PDF, office, text), archives (zip, rar, 7z, tar and its compressions) and everything else, and apart from them the trash. The kinds and the trash add up to the storage use of GET /drive/v1/about.",
    auth: 'user',
    response: Type.Object({
      kinds: Type.Array(Type.Object({ kind: StringEnum(STORAGE_KINDS), ...SpaceSchema.properties }), { description: 'Every kind, in this order, also when empty.' }),
      trash: SpaceSchema,
      total: DecimalString('Bytes of all files, the trash included.'),
    }),
    errors: {},
  }),
};
