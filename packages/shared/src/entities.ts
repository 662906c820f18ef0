/** Wire shapes of the entities the drive API returns (field names as the specification gives them), as schemas. */
import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES, FILE_KIND, FOLDER_KIND, PHASE, SHARE_KINDS, SHARE_STATUS } from './constants.js';
import { DecimalString, Flag, NullableObject, StringEnum, StringMap, TimeString } from './contract/schema-kit.js';

export const FileKindSchema = StringEnum([FILE_KIND, FOLDER_KIND]);
export const PhaseSchema = StringEnum(Object.values(PHASE));

export const TagSchema = Type.Object({ id: Type.String(), name: Type.String(), type: Type.Integer(), time: Type.String() });
export type Tag = Static<typeof TagSchema>;

/** Phases of a media entry: the original is complete; a rendition moves through these while it is transcoded. */
export const MediaPhaseSchema = StringEnum(['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING', 'PHASE_TYPE_COMPLETE', 'PHASE_TYPE_ERROR']);
export type MediaPhase = Static<typeof MediaPhaseSchema>;

/** Stream facts of a playable entry (seconds, pixels, bits per second). */
export const DriveMediaVideoSchema = Type.Object({
  video_codec: Type.String(),
  audio_codec: Type.String({ description: "'' when there is no sound." }),
  width: Type.Number(),
  height: Type.Number(),
  duration: Type.Number(),
  bit_rate: Type.Number(),
});
export type DriveMediaVideo = Static<typeof DriveMediaVideoSchema>;

/** Tags and codec of an audio file's original. */
export const DriveMediaAudioSchema = Type.Object({
  codec: Type.String(),
  duration: Type.Number(),
  title: Type.String(),
  artist: Type.String(),
  album: Type.String(),
});
export type DriveMediaAudio = Static<typeof DriveMediaAudioSchema>;

/** One way to play a file: the original bytes (`is_origin`) or an HLS rendition whose link is its media playlist. */
export const DriveMediaSchema = Type.Object({
  media_id: Type.String({ description: '"origin" for the original; a rendition\'s name (such as 720p) otherwise.' }),
  media_name: Type.String(),
  resolution_name: Type.String({ description: 'The quality shown to people, such as 1080p ("origin" when not known).' }),
  is_origin: Type.Boolean(),
  is_visible: Type.Boolean({ description: 'True when a browser can play the link: the original in a browser-friendly format, or a rendition with segments.' }),
  need_more_quota: Type.Boolean({
    description:
      "True for a rendition above the free plan's resolution (HAUL_FREE_MAX_RESOLUTION) when the viewer is not premium: listed so it can be offered, with no usable link (url '')",
  }),
  link: Type.Object(
    { url: Type.String(), expire: Type.String({ description: 'When the link stops working (RFC 3339).' }) },
    { description: 'A signed link, no token needed: the original\'s bytes, or a rendition\'s HLS playlist.' },
  ),
  video: NullableObject(DriveMediaVideoSchema),
  audio: Type.Optional(DriveMediaAudioSchema),
  phase: MediaPhaseSchema,
  progress: Type.Number({ description: 'Percent done of a rendition being made (100 when complete).' }),
  message: Type.String({ description: "Why the entry failed (phase PHASE_TYPE_ERROR); '' otherwise." }),
});
export type DriveMedia = Static<typeof DriveMediaSchema>;

export const DriveFileSchema = Type.Object(
  {
    kind: FileKindSchema,
    id: Type.String(),
    parent_id: Type.String({ description: "'' for the top level." }),
    name: Type.String(),
    user_id: Type.String(),
    size: DecimalString('Bytes, as a decimal string.'),
    mime_type: Type.String(),
    file_extension: Type.String(),
    hash: Type.String({ description: "The 64-digit hex BLAKE3 hash of a file's bytes; empty for folders." }),
    icon_link: Type.String(),
    thumbnail_link: Type.String(),
    web_content_link: Type.String({ description: 'A signed download link (GET files/{id} only).' }),
    star: Flag(),
    tags: Type.Array(TagSchema),
    sensitive: Flag(),
    audit: NullableObject(Type.Object({ status: Type.String(), message: Type.String(), title: Type.String() })),
    params: StringMap(),
    folder_type: Type.String(),
    phase: PhaseSchema,
    trashed: Type.Boolean(),
    created_time: TimeString(),
    modified_time: TimeString(),
    delete_time: TimeString("When a trashed item leaves the trash for good; '' otherwise."),
    medias: Type.Optional(Type.Array(DriveMediaSchema, { description: 'Ways to play the file (video and audio, on GET files/{id}): the original first, then transcoded renditions.' })),
  },
);
export type DriveFile = Static<typeof DriveFileSchema>;

/** A server task: an upload, a cloud download (type "offline") or a batch operation. */
export const DriveTaskSchema = Type.Object(
  {
    kind: Type.Literal('drive#task'),
    id: Type.String(),
    type: Type.String({ description: 'upload, offline (a cloud download), or the batch operation it records (batch_trash, batch_move, batch_copy, …, empty_trash).' }),
    name: Type.String({ description: "The file's name (uploads and cloud downloads), or the operation's." }),
    phase: Type.String({ description: 'PHASE_TYPE_PENDING (waiting), PHASE_TYPE_RUNNING, PHASE_TYPE_PAUSED (cloud downloads only), PHASE_TYPE_ERROR or PHASE_TYPE_COMPLETE.' }),
    progress: Type.Number({ description: 'Percent done, 0 to 100.' }),
    message: Type.String({ description: "Why the task failed (PHASE_TYPE_ERROR), or why a running cloud download is trying again; '' otherwise." }),
    file_id: Type.String({ description: "The file the task made, once there is one; '' before." }),
    file_name: Type.String({ description: "The file's name when it exists, else the task's name." }),
    file_size: Type.String({ description: "Bytes of the file, or the size known so far, as a decimal string ('' while a cloud download does not know it yet)." }),
    params: StringMap('Details by type. An upload: size. A cloud download: url or torrent, platform, parent_id, name, file_ids; while it runs received, size and speed (bytes a second); for a torrent, file_count (files chosen) and landed (indexes of the files already in the drive: each lands as soon as it is done, file_id pointing at the torrent folder from the first on); error (a limit it hit, as an error name) when it failed. A batch: count.'),
    created_time: TimeString(),
    updated_time: TimeString(),
    reference_resource: NullableObject(DriveFileSchema),
  },
);
export type DriveTask = Static<typeof DriveTaskSchema>;

export const FileListSchema = Type.Object({
  kind: Type.Literal('drive#fileList'),
  files: Type.Array(DriveFileSchema),
  next_page_token: Type.String({ description: "Pass as page_token for the next page; '' on the last page." }),
  sync_time: TimeString('When the listing was read: the since-time of the next sync.'),
});
export type FileList = Static<typeof FileListSchema>;

export const BreadcrumbSchema = Type.Object({ id: Type.String(), name: Type.String(), parent_id: Type.String() });
export type Breadcrumb = Static<typeof BreadcrumbSchema>;

/** Something the user did with a file; one per file and type, refreshed when it happens again. */
export const DriveEventSchema = Type.Object({
  kind: Type.Literal('drive#event'),
  id: Type.String(),
  type: StringEnum(EVENT_TYPES),
  file_id: Type.String(),
  file_name: Type.String({ description: "The file's name now; its name when the event last happened if the file is gone." }),
  mime_type: Type.String(),
  params: StringMap('What the client recorded with the event (TYPE_PLAY: play_duration and play_seconds).'),
  created_time: TimeString('When it first happened.'),
  updated_time: TimeString('When it last happened.'),
  reference_resource: NullableObject(DriveFileSchema),
});
export type DriveEvent = Static<typeof DriveEventSchema>;

export const TokenResponseSchema = Type.Object({
  token_type: Type.Literal('Bearer'),
  access_token: Type.String({ description: 'Send as `Authorization: Bearer <token>`.' }),
  refresh_token: Type.String({ description: 'Works once at POST /v1/auth/token, for new tokens of the same session; POST /v1/auth/revoke with it signs out.' }),
  expires_in: Type.Integer({ description: 'Seconds the access token lasts.' }),
  sub: Type.String({ description: "The user's id." }),
});
export type TokenResponse = Static<typeof TokenResponseSchema>;

/**
 * A transfer quota: bytes per calendar month in the server's time zone, or for `cloud_download` the cloud downloads
 * added today.
 */
export const TrafficQuotaSchema = Type.Object({
  limit: DecimalString("What the period allows (bytes, or tasks for cloud_download); '-1' when unlimited."),
  usage: DecimalString('What was used this period.'),
  complimentary: DecimalString('Bytes of the limit that transfer packs add.'),
  is_unlimited: Type.Boolean(),
  reset_at: Type.Optional(TimeString('When the period ends and usage starts over.')),
});
export type TrafficQuota = Static<typeof TrafficQuotaSchema>;

export const UserInfoSchema = Type.Object({
  sub: Type.String({ description: "The user's id." }),
  name: Type.String(),
  email: Type.String(),
  phone_number: Type.String({ description: "The account's phone number in E.164 (`+14155552671`); '' when none is bound." }),
  picture: Type.String({ description: "A same-origin path of the built-in avatar chosen (`/drive/avatars/3.svg`); '' when none is." }),
  created_at: TimeString(),
  password_updated_at: TimeString(),
  status: Type.String({ description: 'ACTIVE.' }),
  vip_status: Type.String({ description: '"ok" while premium, else "none".' }),
  premium: Type.Boolean(),
  expire: TimeString("When premium ends; '' without premium."),
  providers: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The provider id (as in POST /v1/auth/provider/uri).' }),
      name: Type.String({ description: "The provider's name; the id when the operator no longer offers it." }),
    }),
    { description: 'The sign-in providers connected to the account, oldest first.' },
  ),
  has_set_password: Type.Boolean(),
  required_set_password: Type.Boolean({ description: 'The operator asks every account to have a password, and this one has none yet (seed action required_set_password leads to setting it).' }),
  is_admin: Type.Boolean({ description: "Whether the account is the server's admin." }),
  in_beginner_guide: Type.Boolean({ description: 'Seed 001 inBeginnerGuide: the account is in its first 7 days and the server offers the beginner guide (HAUL_BEGINNER_GUIDE); the app starts the guide once unless the account finished it (setting beginner_guide_done).' }),
  first_login: Type.Boolean({
    description:
      "Seed 001 firstLogin: the call comes through one of the person's own sign-ins (not an app's) that began within 24 hours of the account's creation (the sign-up's own, and any other begun on that first day). A sign-in begun later answers false, even while an earlier one still answers true. Only GET me says; other answers send false.",
  }),
  has_beginner_task_rights: Type.Boolean({
    description:
      'Seed 001 hasBeginnerTaskRights: the account may still take the beginner tasks (the guide): the server offers the guide, the account was made after 2023-02-14, and it has not finished or skipped the guide (setting beginner_guide_done). Only GET me says; other answers send false.',
  }),
});
export type UserInfo = Static<typeof UserInfoSchema>;

export const AboutSchema = Type.Object({
  kind: Type.Literal('drive#about'),
  quota: Type.Object(
    {
      kind: Type.Literal('drive#quota'),
      limit: DecimalString('Bytes of storage the account may use.'),
      usage: DecimalString('Bytes stored, the trash included.'),
      usage_in_trash: DecimalString('Bytes of that in the trash.'),
    },
    { description: 'Storage.' },
  ),
  expires_at: TimeString("Always '' on this server."),
  quotas: Type.Record(Type.String(), TrafficQuotaSchema, { description: 'The quota kinds asked for in with_quotas, by kind.' }),
});
export type About = Static<typeof AboutSchema>;

/** A share as its owner sees it in the share list. Counts are exact decimal strings; clients cap their display. */
export const ShareEntrySchema = Type.Object({
  share_id: Type.String(),
  share_url: Type.String({ description: "The share's page: <server>/s/<share_id>." }),
  share_to: StringEnum(SHARE_KINDS, { description: 'publiclink: anyone with the link; encryptedlink: the link and its pass code.' }),
  pass_code: Type.String({ description: "The code visitors must give ('' for a public link). Only the owner is ever sent it." }),
  phrase: Type.String({ description: "Words a person can type instead of the link (GET share/code); '' when none. Only the owner is sent it." }),
  title: Type.String(),
  file_kind: FileKindSchema,
  file_size: DecimalString('Bytes of the shared files, those inside shared folders included (counted when the share was made).'),
  file_num: DecimalString('Files shared, those inside shared folders included (counted when the share was made).'),
  file_ids: Type.Array(Type.String(), { description: "Ids of the shared items still in the drive, in the owner's order." }),
  create_time: TimeString(),
  view_count: DecimalString('Visits of the share page by people other than the owner.'),
  restore_count: DecimalString('Times visitors saved the share to their drive.'),
  restore_limit: DecimalString('Saves the owner allows (0: no limit); past it, saving answers MAX_RESTORE_COUNT.'),
  share_status: StringEnum(Object.values(SHARE_STATUS), { description: 'OK while the link works; EXPIRED, or DELETED once it is cancelled or all its items are gone.' }),
  share_status_text: Type.String(),
  expiration_days: DecimalString("The validity chosen: '1', '7', '14', '30', or '-1' for never."),
  expiration_at: Type.String({ description: "RFC 3339, or '-1' for never." }),
  expiration_left: Type.String({ description: "Whole days left (rounded up), '-1' for never." }),
  expiration_left_seconds: Type.String({ description: "Seconds left, '-1' for never." }),
});
export type ShareEntry = Static<typeof ShareEntrySchema>;

const { medias: _medias, ...fileFields } = DriveFileSchema.properties;
/**
 * A file as a share's visitor sees it: what it is, not whose it is or where else it lives. The owner's fields are
 * constants here, so whatever the server holds, a visitor is sent '' / 0 / [] / {} for them.
 */
export const SharedFileSchema = Type.Object({
  ...fileFields,
  user_id: Type.Literal('', { description: "Always '': a visitor is not told whose the file is." }),
  hash: Type.Literal('', { description: "Always '' for a visitor." }),
  star: Type.Literal(0),
  tags: Type.Unsafe<[]>({ type: 'array', const: [], description: 'Always empty for a visitor.' }),
  params: Type.Object(
    {
      anonymous_play_seconds: Type.Optional(Type.String({ description: 'Seconds of the preview a limited visitor may play (share/file_info of a video or song only).' })),
      anonymous_play_range: Type.Optional(Type.String({ description: 'The preview as a fraction of the duration (0–1); the allowed point is the larger of the two.' })),
    },
    { description: "Empty for a visitor, but for the preview limit of a video or song when the visitor's playback is limited (not the owner, not premium)." },
  ),
  medias: Type.Optional(
    Type.Array(DriveMediaSchema, {
      description:
        "share/file_info of a video or song: how the visitor may play it. A limited visitor gets renditions whose playlists end at the preview's allowed point, and no original.",
    }),
  ),
  delete_time: Type.Literal(''),
  web_content_link: Type.String({ description: "A signed link to the bytes through the share (share/file_info only; '' in a listing and for folders)." }),
});
export type SharedFile = Static<typeof SharedFileSchema>;

/** What a share link shows a visitor (GET share): its status, and when it is OK, a page of its files. */
export const ShareViewSchema = Type.Object({
  share_status: StringEnum(Object.values(SHARE_STATUS), { description: 'OK, or why the share does not show: PASS_CODE_EMPTY (ask for the code), PASS_CODE_ERROR, EXPIRED, DELETED, SENSITIVE_RESOURCE, NOT_FOUND…' }),
  share_status_text: Type.String({ description: "The status in words a person can read ('' when OK)." }),
  share_id: Type.String(),
  title: Type.String(),
  pass_code_token: Type.String({ description: "Sent after a correct pass code: later calls carry it instead of the code. '' otherwise." }),
  user_info: Type.Object({
    user_id: Type.Literal('', { description: "Always '': a visitor learns the owner's name, not an id to look them up by." }),
    nickname: Type.String({ description: "The owner's name." }),
  }),
  create_time: TimeString(),
  expiration_at: Type.String({ description: "RFC 3339, or '-1' for never ('' when the share does not show)." }),
  expiration_left_seconds: Type.String({ description: "Seconds left, '-1' for never ('' when the share does not show)." }),
  ancestors: Type.Array(BreadcrumbSchema, { description: "The folders from the shared item down to the one listed (empty at the share's top level)." }),
  files: Type.Array(SharedFileSchema),
  next_page_token: Type.String(),
  is_owner: Type.Boolean({ description: 'True when the caller owns the share (signed in as its owner: no pass code asked).' }),
});
export type ShareView = Static<typeof ShareViewSchema>;
