/**
 * Uploads: the large-file pre-check and the tus endpoint that receives the bytes. An upload is created with POST
 * /drive/v1/files (upload_type UPLOAD_TYPE_RESUMABLE), which answers the tus upload URL.
 */
import { Type } from '@sinclair/typebox';
import { CID_SLICE_BYTES, CID_THRESHOLD_BYTES } from '../rules/content-id.js';
import { route } from './define.js';

const tag = 'Uploads';
const UploadParams = Type.Object({ '*': Type.String({ description: 'The upload key: resumable.params.key of POST /drive/v1/files.' }) });
/** The reference's name for the upload key (the router's `*`). */
const restName = 'upload_id';
const MB = 1024 * 1024;

/** The request headers of tus, as the reference lists them (tus checks them itself and answers its own statuses). */
const TusResumable = Type.Literal('1.0.0', { description: 'The tus protocol version: 1.0.0.' });
const Digits = (description: string) => Type.String({ pattern: '^[0-9]+$', description });
const TusHeaders = Type.Object({ 'Tus-Resumable': TusResumable });
const PatchHeaders = Type.Object({
  'Tus-Resumable': TusResumable,
  'Upload-Offset': Digits('Where these bytes start: the offset the server has (HEAD tells it).'),
});
const CreationHeaders = Type.Object({
  'Tus-Resumable': TusResumable,
  'Upload-Length': Type.Optional(Digits('Bytes the upload will have.')),
  'Upload-Defer-Length': Type.Optional(Type.Literal('1', { description: 'The length is not known yet.' })),
  'Upload-Metadata': Type.Optional(Type.String({ description: 'tus metadata: comma-separated keys, each with its value in base64.' })),
});

/** Headers every tus answer but GET's carries. */
const TUS_RESUMABLE = { 'Tus-Resumable': '1.0.0: the protocol version the server speaks.' };
/** What the last PATCH (or a HEAD that places the file) adds. */
const PLACED = {
  'Haul-File-Id': 'When every byte has arrived and the file is placed: its id.',
  'Haul-Task-Id': 'When every byte has arrived and the file is placed: the id of its upload task.',
};
const OPTIONS_HEADERS = {
  ...TUS_RESUMABLE,
  'Tus-Version': 'The protocol versions the server speaks: 1.0.0.',
  'Tus-Extension': 'The extensions: creation, creation-with-upload, creation-defer-length, termination, expiration.',
  'Access-Control-Allow-Origin': '*: any origin may call (the token, not a cookie, is the permission).',
  'Access-Control-Allow-Methods': 'POST, HEAD, PATCH, OPTIONS, DELETE.',
  'Access-Control-Allow-Headers': 'The tus headers and Authorization, which a browser may send.',
  'Access-Control-Expose-Headers': 'The tus headers a browser may read.',
  'Access-Control-Max-Age': 'Seconds a browser may keep this preflight answer: 86400.',
};

/** What every tus request but OPTIONS and GET is checked for first, before the access token. */
const tusHeaderErrors = {
  failed_precondition: { status: 412, when: 'The Tus-Resumable header is missing.' },
  invalid_argument: 'A tus header has a value the protocol does not allow (an Upload-Offset or Upload-Length that is not a number, …).',
} as const;
const noUpload = 'No such upload of yours: an unknown key, another user\'s upload, or one that finished, was cancelled or expired.';
const tusHeaders =
  'Send `Tus-Resumable: 1.0.0` and the access token (`Authorization: Bearer …`); every answer carries `Tus-Resumable: 1.0.0`. The protocol checks come before the token check, so a request without Tus-Resumable answers 412 even when signed out.';

/** What OPTIONS answers, at the endpoint and at an upload URL. */
const optionsDescription = (where: string) =>
  `The tus server's capabilities ${where}: \`Tus-Version: 1.0.0\`, \`Tus-Extension\` (creation, creation-with-upload, creation-defer-length, termination, expiration; creation is refused, see POST /drive/v1/uploads) and the CORS headers a browser's preflight needs. No token and no Tus-Resumable header needed.`;
/** An answer without a body (in the reference: no content), what tus answers but to GET. */
const noBody = (description: string) => Type.Null({ description });

export const uploadsRoutes = {
  checkCid: route({
    method: 'GET',
    path: '/drive/v1/resource/cid',
    tag,
    summary: 'Is a large file stored already?',
    description: `Before hashing a file larger than ${CID_THRESHOLD_BYTES / MB} MiB, a client can ask whether content of that size and sample id (cid) is stored on the server; only then is the full hash worth computing, for an instant upload. The cid is the 64-digit hex BLAKE3 hash of three ${CID_SLICE_BYTES}-byte slices (the start, the middle and the end of the file), read in that order. Files of ${CID_THRESHOLD_BYTES / MB} MiB or less have no cid: this answers false for them.`,
    auth: 'user',
    query: Type.Object({
      cid: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The sample id, lowercase hex.' }),
      file_size: Type.Integer({ minimum: 0, description: 'Bytes of the file.' }),
    }),
    response: Type.Object({ exists: Type.Boolean({ description: 'Whether content of that size and cid is stored (by any user: the full hash and a proof of possession are still needed to use it).' }) }),
    errors: {},
  }),

  tusOptions: route({
    method: 'OPTIONS',
    path: '/drive/v1/uploads',
    tag,
    summary: 'tus: server capabilities',
    description: optionsDescription('at the endpoint'),
    auth: 'public',
    response: noBody('No body: the headers say it.'),
    answerHeaders: OPTIONS_HEADERS,
    status: 204,
    errors: {},
  }),
  tusOptionsUpload: route({
    method: 'OPTIONS',
    path: '/drive/v1/uploads/*',
    tag,
    summary: 'tus: capabilities at an upload URL',
    description: optionsDescription("at an upload URL (what a browser's preflight of a cross-origin HEAD or PATCH asks)"),
    auth: 'public',
    params: UploadParams,
    restName,
    response: noBody('No body: the headers say it.'),
    answerHeaders: OPTIONS_HEADERS,
    status: 204,
    errors: {},
  }),

  tusCreate: route({
    method: 'POST',
    path: '/drive/v1/uploads',
    tag,
    summary: 'tus: creation (refused)',
    description: `tus creation is not how uploads start here: POST /drive/v1/files with upload_type UPLOAD_TYPE_RESUMABLE creates the upload (and can make it instant) and answers its upload URL. A signed-in creation request that passes the protocol checks answers 404. ${tusHeaders}`,
    auth: 'tus',
    requestHeaders: CreationHeaders,
    response: noBody('Never: no upload is created here.'),
    status: 201,
    errors: {
      ...tusHeaderErrors,
      invalid_argument: 'Neither or both of Upload-Length and Upload-Defer-Length, an invalid Upload-Metadata, or a tus header with a value the protocol does not allow.',
      file_not_found: 'Always, once the request passes the protocol and token checks: create uploads with POST /drive/v1/files.',
      internal: { status: [500, 501], when: 'Something failed on the server; 501 for an Upload-Concat header (the concatenation extension is not supported).' },
    },
  }),

  tusGet: route({
    method: 'GET',
    path: '/drive/v1/uploads/*',
    tag,
    summary: "tus: an upload's received bytes",
    description:
      "The received bytes (`application/octet-stream`, as an attachment), only between the last byte arriving and the file being placed; before and after, 404. The placed file is read through GET /drive/v1/files/{id}. Needs the access token but no Tus-Resumable header. Where an upload stands is HEAD's answer (operation tusHead).",
    auth: 'tus',
    params: UploadParams,
    restName,
    response: { raw: true, types: ['application/octet-stream'], description: 'The bytes.' },
    errors: { file_not_found: `${noUpload} Also while bytes are missing.` },
    head: {
      name: 'tusHead',
      summary: "tus: an upload's offset",
      description: [
        `Where an upload stands, to resume it: answers 200 with \`Upload-Offset\` (bytes received) and \`Upload-Length\` (bytes announced), \`Cache-Control: no-store\`, no body. ${tusHeaders}`,
        'When every byte has arrived but the file was never placed (the server stopped in between), HEAD places it first and answers the full offset with `Haul-File-Id` and `Haul-Task-Id` headers, so a client that then sends nothing still gets its file.',
      ].join('\n\n'),
      requestHeaders: TusHeaders,
      answer: 'No body: the headers say where the upload stands.',
      answerHeaders: {
        ...TUS_RESUMABLE,
        'Upload-Offset': 'Bytes received so far.',
        'Upload-Length': 'Bytes the upload has (announced at creation).',
        'Cache-Control': 'no-store: an offset is never to be reused.',
        ...PLACED,
      },
      errors: {
        failed_precondition: { status: 412, when: 'The Tus-Resumable header is missing.' },
        invalid_argument: 'A tus header has a value the protocol does not allow.',
        file_not_found: noUpload,
      },
    },
  }),

  tusPatch: route({
    method: 'PATCH',
    path: '/drive/v1/uploads/*',
    tag,
    summary: 'tus: send bytes',
    description: [
      `Appends the body to the upload at \`Upload-Offset\`, which must be the offset the server has (HEAD tells it). Send \`Content-Type: application/offset+octet-stream\`; the bytes may stop short of \`Upload-Length\` (chunks), and the next PATCH continues from the new offset. ${tusHeaders}`,
      'Answers 204 with the new `Upload-Offset`. The PATCH that brings the last byte also checks the bytes against the hash given at creation (if one was) and places the file; its answer adds `Haul-File-Id` and `Haul-Task-Id`. A repeat of that last PATCH (a client that missed the answer) gets the same file, not a copy.',
      "A full disk answers 507: the bytes written before stay, and the upload continues from them once space is freed.",
    ].join('\n\n'),
    auth: 'tus',
    params: UploadParams,
    restName,
    requestHeaders: PatchHeaders,
    rawBody: { types: ['application/offset+octet-stream'], description: 'The bytes that follow Upload-Offset: all that is left, or a chunk of it.' },
    response: noBody('No body; `Upload-Offset` is the new offset (and the last PATCH adds `Haul-File-Id` and `Haul-Task-Id`).'),
    answerHeaders: { ...TUS_RESUMABLE, 'Upload-Offset': 'The new offset: bytes received so far.', ...PLACED },
    status: 204,
    errors: {
      invalid_argument: 'A tus header has a value the protocol does not allow, or a newer request to the same upload took over while this one was writing (this one stops).',
      failed_precondition: { status: [409, 412], when: 'Upload-Offset is not where the upload stands (409; HEAD tells where), or the Tus-Resumable header is missing (412).' },
      permission_denied: 'The Upload-Offset header is missing, or Content-Type is not application/offset+octet-stream.',
      file_not_found: `${noUpload} On the last byte: the folder it goes into no longer exists; nothing was kept.`,
      payload_too_large: 'The bytes go past the Upload-Length the upload has.',
      file_hash_mismatch: 'On the last byte: the bytes do not match the hash given when the upload was created; nothing was kept and the task fails.',
      file_in_recycle_bin: 'On the last byte: the folder it goes into is in the trash; nothing was kept and the task fails.',
      resource_exhausted: "The server's disk is full: the bytes written before stay; send the rest once space is freed.",
    },
  }),

  tusDelete: route({
    method: 'DELETE',
    path: '/drive/v1/uploads/*',
    tag,
    summary: 'tus: drop the received bytes',
    description: `tus termination: drops the bytes received so far, after which the upload cannot continue. To cancel an upload and remove its task, use DELETE /drive/v1/tasks. ${tusHeaders} Answers 204.`,
    auth: 'tus',
    params: UploadParams,
    restName,
    requestHeaders: TusHeaders,
    response: noBody('No body.'),
    answerHeaders: TUS_RESUMABLE,
    status: 204,
    errors: { ...tusHeaderErrors, file_not_found: noUpload },
  }),
};
