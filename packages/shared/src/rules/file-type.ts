/** File-type detection by extension and MIME type, as the specification lists it. */

const IMAGE_EXT = new Set(['png', 'jpeg', 'bmp', 'jpg', 'icon', 'jpe', 'gif', 'jpeg2000', 'webp', 'svg', 'avif', 'heic']);
const VIDEO_EXT = new Set([
  'wmv', 'asf', 'asx', 'rm', 'rmvb', 'mpg', 'mpeg', 'mpe', '3gp', 'mov', 'mp4', 'webm', 'm4v',
  'avi', 'mkv', 'flv', 'f4v', 'vob', 'ts', 'xv',
]);
const AUDIO_EXT = new Set([
  'wav', 'midi', 'cda', 'mp3', 'mp3pro', 'wma', 'sacd', 'vqf', 'ra', 'voc', 'au', 'aif', 'snd',
  'aac', 'flac', 'ape', 'ogg', 'opus', 'm4a',
]);
const ARCHIVE_EXT = new Set(['7z', 'zip', 'rar']);

/** Lower-case extension without the dot ('' when there is none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export function isImage(name: string, mime = ''): boolean {
  return IMAGE_EXT.has(extensionOf(name)) || mime.startsWith('image/');
}

export function isVideo(name: string, mime = ''): boolean {
  return VIDEO_EXT.has(extensionOf(name)) || (mime.startsWith('video/') && mime !== 'video/webp_pipe');
}

export function isAudio(name: string, mime = ''): boolean {
  return AUDIO_EXT.has(extensionOf(name)) || mime.startsWith('audio/');
}

/** 7z, zip and rar; an epub is a zip inside but not an archive to the user. */
export function isArchive(name: string): boolean {
  return ARCHIVE_EXT.has(extensionOf(name));
}

export function isTorrent(name: string, mime = ''): boolean {
  return extensionOf(name) === 'torrent' || mime === 'application/x-bittorrent';
}

export type FileCategory = 'video' | 'photo' | 'zip' | 'bt' | 'other';

export function categoryOf(name: string, mime = ''): FileCategory {
  if (isVideo(name, mime)) return 'video';
  if (isImage(name, mime)) return 'photo';
  if (isArchive(name)) return 'zip';
  if (isTorrent(name, mime)) return 'bt';
  return 'other';
}

export type MediaType = 'video' | 'image' | 'audio';

export function mediaTypeOf(name: string, mime = ''): MediaType | null {
  if (isVideo(name, mime)) return 'video';
  if (isImage(name, mime)) return 'image';
  if (isAudio(name, mime)) return 'audio';
  return null;
}
