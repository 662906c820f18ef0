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
  audio_codec: Type.String(),
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
  media_id: Type.String(),
  media_name: Type.String(),
  resolution_name: Type.String(),
  is_origin: Type.Boolean(),
  is_visible: Type.Boolean({ description: 'True when a browser can play the link: the original in a browser-friendly format, or a rendition with segments.' }),
  need_more_quota: Type.Boolean(),
  link: Type.Object({ url: Type.String(), expire: Type.String() }),
  video: NullableObject(DriveMediaVideoSchema),
  audio: Type.Optional(DriveMediaAudioSchema),
  phase: MediaPhaseSchema,
  progress: Type.Number(),
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
    hash: Type.String({ description: 'The content id (GCID) of a file; empty for folders.' }),
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
    type: Type.String(),
    name: Type.String(),
    phase: Type.String(),
    progress: Type.Number(),
    message: Type.String(),
    file_id: Type.String(),
    file_name: Type.String(),
    file_size: Type.String(),
    params: StringMap(),
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

export const DriveEventSchema = Type.Object({
  kind: Type.Literal('drive#event'),
  id: Type.String(),
  type: StringEnum(EVENT_TYPES),
  file_id: Type.String(),
  file_name: Type.String(),
  mime_type: Type.String(),
  params: StringMap(),
  created_time: TimeString(),
  updated_time: TimeString(),
  reference_resource: NullableObject(DriveFileSchema),
});
export type DriveEvent = Static<typeof DriveEventSchema>;

export const TokenResponseSchema = Type.Object({
  token_type: Type.Literal('Bearer'),
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: Type.Integer({ description: 'Seconds the access token lasts.' }),
  sub: Type.String({ description: "The user's id." }),
});
export type TokenResponse = Static<typeof TokenResponseSchema>;

export const TrafficQuotaSchema = Type.Object({
  limit: DecimalString(),
  usage: DecimalString(),
  complimentary: DecimalString(),
  is_unlimited: Type.Boolean(),
});
export type TrafficQuota = Static<typeof TrafficQuotaSchema>;

export const UserInfoSchema = Type.Object({
  sub: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone_number: Type.String(),
  picture: Type.String(),
  created_at: TimeString(),
  password_updated_at: TimeString(),
  status: Type.String(),
  vip_status: Type.String(),
  premium: Type.Boolean(),
  expire: TimeString(),
  providers: Type.Array(Type.Unknown()),
  has_set_password: Type.Boolean(),
  is_admin: Type.Boolean(),
});
export type UserInfo = Static<typeof UserInfoSchema>;

export const AboutSchema = Type.Object({
  kind: Type.Literal('drive#about'),
  quota: Type.Object({ kind: Type.Literal('drive#quota'), limit: DecimalString(), usage: DecimalString(), usage_in_trash: DecimalString() }),
  expires_at: TimeString(),
  quotas: Type.Record(Type.String(), TrafficQuotaSchema),
});
export type About = Static<typeof AboutSchema>;

/** A share as its owner sees it in the share list. Counts are exact decimal strings; clients cap their display. */
export const ShareEntrySchema = Type.Object({
  share_id: Type.String(),
  share_url: Type.String(),
  share_to: StringEnum(SHARE_KINDS),
  pass_code: Type.String({ description: "'' for a public link." }),
  title: Type.String(),
  file_kind: FileKindSchema,
  file_size: DecimalString(),
  file_num: DecimalString(),
  file_ids: Type.Array(Type.String(), { description: "Ids of the shared items, in the owner's order." }),
  create_time: TimeString(),
  view_count: DecimalString(),
  restore_count: DecimalString(),
  share_status: StringEnum(Object.values(SHARE_STATUS)),
  share_status_text: Type.String(),
  expiration_days: DecimalString(),
  expiration_at: Type.String({ description: "RFC 3339, or '-1' for never." }),
  expiration_left: Type.String({ description: "Whole days left (rounded up), '-1' for never." }),
  expiration_left_seconds: Type.String(),
});
export type ShareEntry = Static<typeof ShareEntrySchema>;

/** What a share link shows a visitor (GET share): its status, and when it is OK, a page of its files. */
export const ShareViewSchema = Type.Object({
  share_status: StringEnum(Object.values(SHARE_STATUS)),
  share_status_text: Type.String(),
  share_id: Type.String(),
  title: Type.String(),
  pass_code_token: Type.String({ description: 'Sent after a correct pass code: later calls carry it instead of the code.' }),
  user_info: Type.Object({ user_id: Type.String(), nickname: Type.String() }),
  create_time: TimeString(),
  expiration_at: Type.String(),
  expiration_left_seconds: Type.String(),
  ancestors: Type.Array(BreadcrumbSchema, { description: "The folders from the shared item down to the one listed (empty at the share's top level)." }),
  files: Type.Array(DriveFileSchema),
  next_page_token: Type.String(),
  is_owner: Type.Boolean({ description: 'True when the caller owns the share.' }),
});
export type ShareView = Static<typeof ShareViewSchema>;
