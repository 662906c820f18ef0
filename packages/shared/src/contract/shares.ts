/**
 * Share links: the owner's calls (create, change, list, cancel, which files are shared) and what a link shows anyone
 * who has it, signed in or not (its page, a file's download link, saving it to one's own drive).
 */
import { Type } from '@sinclair/typebox';
import { LIMITS, SHARE_EXPIRATION_DAYS, SHARE_KINDS, SHARE_STATUS } from '../constants.js';
import { ShareEntrySchema, SharedFileSchema, ShareViewSchema } from '../entities.js';
import { route } from './define.js';
import { Empty, StringEnum } from './schema-kit.js';
import { Id, Ids, ParentId } from './files.js';
import { BAD_RANGE, DOWNLOAD_DAY, DOWNLOAD_MONTH } from './media.js';

const tag = 'Shares';
const ShareId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$', description: 'A share id: the last part of its link (/s/<share_id>).' });
const ShareIds = Type.Array(Type.String({ minLength: 1, maxLength: 64, description: 'A share id.' }), { minItems: 1, maxItems: LIMITS.batchMaxIds });
const PassCode = (description: string) => Type.String({ maxLength: 64, description });
const PassCodeToken = Type.Optional(Type.String({ maxLength: 200, description: 'The pass_code_token GET share answered for the correct pass code (encrypted links; it lasts two hours).' }));
const Title = Type.Optional(Type.String({ maxLength: 1024, description: 'At most 255 characters; the name of the first item (with "(+n)" for more) when absent.' }));
const DAYS = SHARE_EXPIRATION_DAYS.join(', ');

/** Why a share that is not open refuses a call that acts through it (share_status in details says which). */
const NOT_OPEN = 'The share is not open to the caller: no or a wrong pass_code_token, expired, cancelled, held by an operator (AUDITING, PROHIBITED, SENSITIVE_RESOURCE), saved as often as its owner allows (MAX_RESTORE_COUNT, on saving), or its items are gone or flagged (details[0].share_status says which).';
/** A visitor's words on encrypted links, for every public call through a share. */
const PASS_CODE_NOTE =
  'An encrypted link (share_to encryptedlink) needs its pass code: GET share with `pass_code` answers a `pass_code_token`, which later calls carry instead. Its owner, signed in, needs neither.';

const ShareStatusAnswerSchema = Type.Object({
  file_statuses: Type.Array(
    Type.Object({ file_id: Type.String(), share_id: Type.String(), share_status: Type.String({ description: 'OK: only live shares are listed.' }) }),
    { description: 'One entry per live share that exposes one of the files directly (the same file may appear once per share).' },
  ),
});

export const sharesRoutes = {
  viewShare: route({
    method: 'GET',
    path: '/drive/v1/share',
    tag,
    summary: 'Open a share link',
    description:
      `What a share link shows, to anyone who has it (no token needed; a token of the owner marks the answer is_owner). share_status says whether it shows: OK with a page of its items (or, with parent_id, of a folder inside it), or why not (PASS_CODE_EMPTY, PASS_CODE_ERROR, EXPIRED, DELETED…) with no files; a closed share is an answer, not an error. ${PASS_CODE_NOTE} Wrong pass codes are slowed down per share and address. A visitor sees the files, never the pass code, the owner's id or the files' hashes, tags and parameters.`,
    auth: 'public',
    query: Type.Object({
      share_id: ShareId,
      pass_code: Type.Optional(PassCode('The pass code of an encrypted link, as the owner gave it (case does not matter).')),
      pass_code_token: PassCodeToken,
      parent_id: Type.Optional(Type.String({ maxLength: 64, description: "A folder inside the share to list; absent or '' for the shared items themselves." })),
      page_token: Type.Optional(Type.String({ maxLength: 2000 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax })),
      order: Type.Optional(Type.String({ maxLength: 40, description: 'Order of a folder listing (as GET files).' })),
      thumbnail_size: Type.Optional(Type.String({ maxLength: 40 })),
    }),
    response: ShareViewSchema,
    errors: {
      file_not_found: 'parent_id is not a folder of this share (or is trashed, unfinished or flagged).',
      invalid_argument: 'parent_id is a file, or order or page_token is not valid.',
      too_many_requests: 'Too many wrong pass codes from this address: try again later (details[0].retry_after_seconds).',
    },
  }),
  shareFileInfo: route({
    method: 'GET',
    path: '/drive/v1/share/file_info',
    tag,
    summary: 'Get a file of a share',
    description: `One item of an open share, or an item inside a shared folder, with a signed download link (web_content_link) that works as long as the share does and dies when it is cancelled, expires or its pass code changes. A video or song also has \`medias\` (how the visitor may play it; see share/media) and, for a visitor whose playback is limited, the preview limit in params. ${PASS_CODE_NOTE}`,
    auth: 'public',
    query: Type.Object({
      share_id: ShareId,
      file_id: Id,
      pass_code_token: PassCodeToken,
      usage: Type.Optional(Type.String({ maxLength: 40, description: "PLAY: the visitor is about to play it (starts a video's transcode, as GET files/{id} does)." })),
    }),
    response: Type.Object({ share_status: Type.Literal(SHARE_STATUS.OK), file_info: SharedFileSchema }),
    errors: {
      permission_denied: NOT_OPEN,
      file_not_found: 'The file is not part of this share (or is trashed, unfinished or flagged).',
    },
  }),
  shareContent: route({
    method: 'GET',
    path: '/drive/v1/share/content/:id',
    tag,
    summary: "Download a shared file's bytes",
    description:
      "The target of share/file_info's web_content_link: the file's bytes as an attachment under its name, for whoever holds the link, without a token or pass code (the link is signed with the share's pass code). It stops working when the share is cancelled, expires or gets a new pass code, or the file leaves the share. Range: one `bytes=` range answers 206 with Content-Range (a range wholly past the end answers 416 invalid_argument with Content-Range: bytes */size); If-None-Match with the ETag answers 304. Types a browser could run as a page (HTML, SVG, XML, scripts) are sent as application/octet-stream. The bytes sent count against the download allowance of the signed-in visitor the link was made for, or of the share's owner for a visitor who is not signed in.",
    auth: 'signed-link',
    params: Type.Object({ id: Id }),
    query: Type.Object({
      share_id: Type.Optional(ShareId),
      e: Type.Optional(Type.String({ maxLength: 20, description: 'When the link expires: Unix time in seconds.' })),
      s: Type.Optional(Type.String({ maxLength: 200, description: 'The signature over the share, its pass code, the file, the expiry and the payer.' })),
      p: Type.Optional(Type.String({ maxLength: 40, description: 'The signed-in visitor the link was made for, who pays for the bytes; absent: the share\'s owner pays.' })),
    }),
    response: { raw: true, types: ['application/octet-stream', '*/*'], description: "The file's bytes (or the asked range) with its stored type, as an attachment." },
    errors: {
      file_not_found: 'The link is malformed, tampered with or expired, the share is no longer open, or the file is no longer in it.',
      invalid_argument: BAD_RANGE,
      monthly_download_size_exceeded: DOWNLOAD_MONTH,
      daily_download_size_exceeded: DOWNLOAD_DAY,
    },
  }),
  resolveShareCode: route({
    method: 'GET',
    path: '/drive/v1/share/code',
    tag,
    summary: 'Find a share by its code',
    description: "Turns what a person typed or pasted, a share id, a link ending in /s/<share_id> or a share's phrase, into the share id, if that share exists and is not cancelled. No token needed; it says nothing of the share but its id (a phrase belongs to a link with a pass code, which the share still asks for).",
    auth: 'public',
    query: Type.Object({ code: Type.Optional(Type.String({ maxLength: 2000, description: 'A share id, or a share link.' })) }),
    response: Type.Object({ data: Type.Array(Type.Object({ content: Type.String({ description: 'The share id.' }) })) }),
    errors: {
      share_not_found: 'No share has that code, or it was cancelled.',
      too_many_requests: 'Too many codes that found nothing from this address: try again later (details[0].retry_after_seconds).',
    },
  }),
  createShare: route({
    method: 'POST',
    path: '/drive/v1/share',
    tag,
    summary: 'Share files',
    description:
      "Makes a link to items of the caller's drive (and, for folders, what they hold). publiclink: anyone with the link sees them; encryptedlink: they also need the pass code, chosen or made up (4 characters). The answer holds the link (share_url) and the pass code. The seeds' request shape works too: `ids` (the items, as file_ids; both may be given), `type: \"share\"`, and `phrase`, words a person can type instead of the link (GET share/code); without share_to and expiration_days a link gets what the web app offers first: a pass code, 7 days.",
    auth: 'user',
    body: Type.Object({
      file_ids: Type.Optional(Ids),
      ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: LIMITS.batchMaxIds, description: 'The items to share, as file_ids (the seeds send either).' })),
      type: Type.Optional(Type.Literal('share', { description: 'What the request makes: only share.' })),
      share_to: Type.Optional(Type.String({ maxLength: 40, description: `One of ${SHARE_KINDS.join(', ')}; encryptedlink when absent.` })),
      expiration_days: Type.Optional(Type.Integer({ description: `Days the link works: one of ${DAYS} (-1: never expires); 7 when absent.` })),
      pass_code: Type.Optional(PassCode('encryptedlink only: 4 to 16 letters or digits (stored lower-case); made up when absent or empty.')),
      title: Title,
      phrase: Type.Optional(Type.String({ maxLength: 256, description: 'encryptedlink only: 6 to 64 characters of letters, digits and spaces (compared without case; hyphens count as spaces), unique among working shares.' })),
      restore_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Saves allowed to visitors, 0 (the default) for no limit.' })),
    }),
    response: ShareEntrySchema,
    errors: {
      file_not_found: 'An id is not one of your files.',
      file_in_recycle_bin: 'An item is in the trash.',
      sensitive_resource: 'An item, or something inside a folder, is flagged and cannot be shared (or is not finished uploading).',
      invalid_argument: 'No items named, or share_to, expiration_days, the pass code, the phrase or the title is not allowed (a public link takes no pass code and no phrase; a title or phrase holding a word the operator blocked answers share_status SENSITIVE_WORD in details).',
      already_exists: 'The phrase is taken by another working share.',
    },
    example: { file_ids: ['…'], share_to: 'encryptedlink', expiration_days: 7 },
  }),
  updateShare: route({
    method: 'PATCH',
    path: '/drive/v1/share',
    tag,
    summary: 'Change a share',
    description:
      "Changes a share's kind, pass code, validity or title; absent fields stay. A new pass code (or turning a link encrypted) ends every visitor's access, download links already handed out included. pass_code '' asks for a new made-up code.",
    auth: 'user',
    body: Type.Object({
      share_id: ShareId,
      share_to: Type.Optional(Type.String({ maxLength: 40, description: `One of ${SHARE_KINDS.join(', ')}.` })),
      expiration_days: Type.Optional(Type.Integer({ description: `0 keeps the current expiry; ${DAYS} restart it from now (-1: never).` })),
      pass_code: Type.Optional(PassCode("4 to 16 letters or digits; '' makes up a new one.")),
      title: Type.Optional(Type.String({ maxLength: 1024, description: '1 to 255 characters.' })),
      phrase: Type.Optional(Type.String({ maxLength: 256, description: "Words to find the share by (encryptedlink only); '' takes them away. Making a link public takes them away too." })),
      restore_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Saves allowed to visitors, 0 for no limit.' })),
    }),
    response: ShareEntrySchema,
    errors: {
      share_not_found: 'No such share of yours (or it was cancelled).',
      invalid_argument: 'share_to, expiration_days, the pass code, the phrase, the title or restore_limit is not allowed (a blocked word: share_status SENSITIVE_WORD in details).',
      already_exists: 'The phrase is taken by another working share.',
    },
    example: { share_id: 'k3jwqx2dp9vn8st1ayb7', pass_code: '' },
  }),
  listShares: route({
    method: 'GET',
    path: '/drive/v1/share/list',
    tag,
    summary: 'List your shares',
    description: "The caller's shares, newest first, with their pass codes; cancelled ones are left out. filters={\"id\":{\"in\":\"a,b\"}} picks shares by id.",
    auth: 'user',
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: '100 when absent.' })),
      page_token: Type.Optional(Type.String({ maxLength: 500 })),
      filters: Type.Optional(Type.String({ maxLength: 10_000, description: 'JSON: {"id":{"in":"<id>,<id>"}} (at most 100 ids; a list works too).' })),
    }),
    response: Type.Object({
      data: Type.Array(ShareEntrySchema),
      next_page_token: Type.String({ description: "Pass as page_token for the next page; '' on the last page." }),
    }),
    errors: { invalid_argument: 'filters is not JSON or names more than 100 ids, or page_token is not valid.' },
  }),
  cancelShares: route({
    method: 'POST',
    path: '/drive/v1/share::batchDelete',
    tag,
    summary: 'Cancel shares',
    description: 'Cancels share links: they answer DELETED at once, download links already handed out included. The shared files are not touched.',
    auth: 'user',
    body: Type.Object({ ids: ShareIds }),
    response: Empty,
    errors: { share_not_found: 'An id is not one of your shares (or was cancelled already); nothing was cancelled.' },
  }),
  shareStatusOfFiles: route({
    method: 'POST',
    path: '/drive/v1/share/status/files',
    tag,
    summary: 'Which of your files are shared',
    description: "For the given files of the caller, the live (not cancelled, not expired) shares that expose them directly, as shared items; files only inside a shared folder are not listed. Ids that are not the caller's files are left out.",
    auth: 'user',
    body: Type.Object({ file_ids: Ids }),
    response: ShareStatusAnswerSchema,
    errors: {},
  }),
  restoreShare: route({
    method: 'POST',
    path: '/drive/v1/share/restore',
    tag,
    summary: 'Save a share to your drive',
    description:
      "Copies items of an open share (all of them when file_ids is absent; items inside shared folders may be picked too) into a folder of the caller's drive. The bytes are not copied, but count against the caller's storage. An encrypted link needs the pass_code_token GET share answered for the pass code.",
    auth: 'user',
    body: Type.Object({
      share_id: ShareId,
      pass_code_token: PassCodeToken,
      file_ids: Type.Optional(Ids),
      parent_id: Type.Optional(ParentId),
    }),
    response: Type.Object({
      share_status: Type.Literal(SHARE_STATUS.OK),
      restore_status: StringEnum(['RESTORE_COMPLETE']),
      file_ids: Type.Array(Type.String(), { description: 'Ids of the new top-level items in your folder.' }),
    }),
    errors: {
      permission_denied: NOT_OPEN,
      file_not_found: 'An item is not part of the share, or the folder is not yours.',
      file_in_recycle_bin: 'The folder is in the trash.',
      invalid_argument: 'parent_id is a file.',
      sensitive_resource: 'Something inside the chosen items is flagged and cannot be copied.',
      file_space_not_enough: 'The copies do not fit in your storage.',
    },
    example: { share_id: 'k3jwqx2dp9vn8st1ayb7', parent_id: '' },
  }),
};
