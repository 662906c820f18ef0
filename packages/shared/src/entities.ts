/** Wire shapes of the entities the drive API returns (field names as the specification gives them). */
import type { EventType, FileKind, Phase } from './constants.js';

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
