/**
 * A selection as one zip download: files and folders (of one's drive, or of a share for its visitors) streamed as a
 * zip while it is built. A POST answers a short-lived signed link, so a download manager can fetch it without a token.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { Id } from './files.js';
import { DOWNLOAD_DAY, DOWNLOAD_MONTH } from './media.js';
import { ZIP_MAX_IDS } from '../constants.js';

const tag = 'Media';

const ZipIds = Type.Array(Id, { minItems: 1, maxItems: ZIP_MAX_IDS, description: `Files and folders to put in the zip (at most ${ZIP_MAX_IDS}; a folder brings everything below it).` });

const ZipLinkSchema = Type.Object({
  url: Type.String({ description: 'The signed link of the zip (GET, no token): it works for a short time (HAUL_DOWNLOAD_LINK_TTL).' }),
  name: Type.String({ description: "The zip's file name: the folder's name for a single folder, else the first item's name with the count." }),
  expire: Type.String({ description: 'When the link stops working (RFC 3339).' }),
  size: Type.String({ description: "The zip's size in bytes as the link is made: exact when every entry is stored, otherwise an upper bound. It counts against the download allowance." }),
});

const ZIP_FORMAT =
  'Entries keep their folders (empty folders too) under names in UTF-8 (flag bit 11); paths are made safe (no `..`, no absolute paths, control characters replaced by _), and a name taken twice in a folder gets a " (2)" suffix. Media and other files are stored as they are; text is deflated. Past 4 GB the zip is ZIP64.';

export const zipRoutes = {
  createZipLink: route({
    method: 'POST',
    path: '/drive/v1/files::zip',
    tag,
    summary: 'Link a zip of files and folders',
    description: `A signed link that downloads the named files and folders of the caller's drive as one zip. ${ZIP_FORMAT} Trashed and unfinished items are left out.`,
    auth: 'user',
    body: Type.Object({ ids: ZipIds }),
    response: ZipLinkSchema,
    errors: { file_not_found: 'An id is not one of your files, or it is in the trash, or nothing below it is finished.' },
  }),
  createShareZipLink: route({
    method: 'POST',
    path: '/drive/v1/share/zip',
    tag,
    summary: 'Link a zip of a share',
    description: `A signed link that downloads a share (all of it when ids is absent, or items of it, inside shared folders too) as one zip, for anyone the share is open to. ${ZIP_FORMAT} The zip holds exactly what the share shows. Its bytes count against the download allowance of the signed-in visitor, or of the share's owner for a visitor who is not signed in.`,
    auth: 'public',
    body: Type.Object({
      share_id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$', description: 'The share id: the last part of its link.' }),
      pass_code_token: Type.Optional(Type.String({ maxLength: 200, description: 'The pass_code_token GET share answered (encrypted links).' })),
      ids: Type.Optional(ZipIds),
    }),
    response: ZipLinkSchema,
    errors: {
      permission_denied: 'The share is not open to the caller (details[0].share_status says why).',
      file_not_found: 'An item is not part of the share, or it holds nothing to download.',
    },
  }),
  downloadZip: route({
    method: 'GET',
    path: '/drive/v1/zip/:name',
    tag,
    summary: 'Download a zip',
    description: `The target of a zip link: the zip, streamed as it is built, with its exact Content-Length. The selection is sealed in the link; what it holds is read again at the request, so an item trashed since is left out. The bytes count against the download allowance of the account the link was made for (charged up front, and what was not sent given back). No Range.`,
    auth: 'signed-link',
    params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 255, description: "The zip's file name (what a download manager saves it as)." }) }),
    query: Type.Object({
      z: Type.Optional(Type.String({ maxLength: 6000, description: 'The sealed selection: who, which share, which ids, until when.' })),
      s: Type.Optional(Type.String({ maxLength: 128, description: 'The signature (base64url) over z.' })),
    }),
    response: { raw: true, types: ['application/zip'], description: 'The zip, as an attachment.' },
    errors: {
      file_not_found: 'The link is malformed, tampered with or expired, the account signed out everywhere, the share closed or got a new pass code, or nothing of the selection is left.',
      monthly_download_size_exceeded: DOWNLOAD_MONTH,
      daily_download_size_exceeded: DOWNLOAD_DAY,
    },
  }),
};
