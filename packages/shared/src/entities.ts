/** Wire shapes of the entities the drive API returns (field names as the specification gives them). */
import type { EventType, FileKind, Phase, ShareKind, ShareStatus } from './constants.js';

export interface Tag {
  id: string;
  name: string;
  type: number;
  time: string;
}

export interface DriveFile {
  kind: FileKind;
  id: string;
  parent_id: string;
  name: string;
  user_id: string;
  size: string;
  mime_type: string;
  file_extension: string;
  hash: string;
  icon_link: string;
  thumbnail_link: string;
  web_content_link: string;
  star: 0 | 1;
  tags: Tag[];
  sensitive: 0 | 1;
  audit: { status: string; message: string; title: string } | null;
  params: Record<string, string>;
  folder_type: string;
  phase: Phase;
  trashed: boolean;
  created_time: string;
  modified_time: string;
  delete_time: string;
  /** Ways to play the file (video and audio, on GET files/{id}): the original first, then transcoded renditions. */
  medias?: DriveMedia[];
}

/** Phases of a media entry: the original is complete; a rendition moves through these while it is transcoded. */
export type MediaPhase = 'PHASE_TYPE_PENDING' | 'PHASE_TYPE_RUNNING' | 'PHASE_TYPE_COMPLETE' | 'PHASE_TYPE_ERROR';

/** Stream facts of a playable entry (seconds, pixels, bits per second). */
export interface DriveMediaVideo {
  video_codec: string;
  audio_codec: string;
  width: number;
  height: number;
  duration: number;
  bit_rate: number;
}

/** Tags and codec of an audio file's original. */
export interface DriveMediaAudio {
  codec: string;
  duration: number;
  title: string;
  artist: string;
  album: string;
}

/** One way to play a file: the original bytes (`is_origin`) or an HLS rendition whose link is its media playlist. */
export interface DriveMedia {
  media_id: string;
  media_name: string;
  resolution_name: string;
  is_origin: boolean;
  /** True when a browser can play the link: the original in a browser-friendly format, or a rendition with segments. */
  is_visible: boolean;
  need_more_quota: false;
  link: { url: string; expire: string };
  video: DriveMediaVideo | null;
  audio?: DriveMediaAudio;
  phase: MediaPhase;
  progress: number;
  /** Why the entry failed (phase PHASE_TYPE_ERROR); '' otherwise. */
  message: string;
}

/** A server task: an upload, a cloud download (type "offline") or a batch operation. */
export interface DriveTask {
  kind: 'drive#task';
  id: string;
  type: string;
  name: string;
  phase: string;
  progress: number;
  message: string;
  file_id: string;
  file_name: string;
  file_size: string;
  params: Record<string, string>;
  created_time: string;
  updated_time: string;
  reference_resource: DriveFile | null;
}

export interface FileList {
  kind: 'drive#fileList';
  files: DriveFile[];
  next_page_token: string;
  sync_time: string;
}

export interface Breadcrumb {
  id: string;
  name: string;
  parent_id: string;
}

export interface DriveEvent {
  kind: 'drive#event';
  id: string;
  type: EventType;
  file_id: string;
  file_name: string;
  mime_type: string;
  params: Record<string, string>;
  created_time: string;
  updated_time: string;
  reference_resource: DriveFile | null;
}

export interface TokenResponse {
  token_type: 'Bearer';
  access_token: string;
  refresh_token: string;
  expires_in: number;
  sub: string;
}

export interface TrafficQuota {
  limit: string;
  usage: string;
  complimentary: string;
  is_unlimited: boolean;
}

export interface UserInfo {
  sub: string;
  name: string;
  email: string;
  phone_number: string;
  picture: string;
  created_at: string;
  password_updated_at: string;
  status: string;
  vip_status: string;
  premium: boolean;
  expire: string;
  providers: unknown[];
  has_set_password: boolean;
  is_admin: boolean;
}

export interface About {
  kind: 'drive#about';
  quota: {
    kind: 'drive#quota';
    limit: string;
    usage: string;
    usage_in_trash: string;
  };
  expires_at: string;
  quotas: Record<string, TrafficQuota>;
}

/** A share as its owner sees it in the share list. Counts are exact decimal strings; clients cap their display. */
export interface ShareEntry {
  share_id: string;
  share_url: string;
  share_to: ShareKind;
  /** '' for a public link. */
  pass_code: string;
  title: string;
  file_kind: FileKind;
  file_size: string;
  file_num: string;
  /** Ids of the shared items, in the owner's order. */
  file_ids: string[];
  create_time: string;
  view_count: string;
  restore_count: string;
  share_status: ShareStatus;
  share_status_text: string;
  expiration_days: string;
  /** RFC 3339, or '-1' for never. */
  expiration_at: string;
  /** Whole days left (rounded up), '-1' for never. */
  expiration_left: string;
  expiration_left_seconds: string;
}

/** What a share link shows a visitor (GET share): its status, and when it is OK, a page of its files. */
export interface ShareView {
  share_status: ShareStatus;
  share_status_text: string;
  share_id: string;
  title: string;
  /** Sent after a correct pass code: later calls carry it instead of the code. */
  pass_code_token: string;
  user_info: { user_id: string; nickname: string };
  create_time: string;
  expiration_at: string;
  expiration_left_seconds: string;
  /** The folders from the shared item down to the one listed (empty at the share's top level). */
  ancestors: Breadcrumb[];
  files: DriveFile[];
  next_page_token: string;
  /** True when the caller owns the share. */
  is_owner: boolean;
}
