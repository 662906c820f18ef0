/**
 * Where a file came from (`params.platform`, seed 000 §3) and the tag icon that shows it (`params.platform_icon`, one of
 * the seeds' tag icons). The server records the platform when it creates the file; the icon is derived on the way out.
 */

/** Platforms Haul records: uploads (browser, WebDAV), saves from a share, cloud downloads by link host, torrents, archives. */
export const PLATFORMS = ['upload', 'share', 'youtube', 'twitter', 'tiktok', 'telegram', 'facebook', 'pornhub', 'bt', 'archive', 'other'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The seeds' tag icons. */
export const TAG_ICONS = ['audio', 'facebook', 'folder', 'image', 'other', 'pornhub', 'share', 'star', 'telegram', 'tiktok', 'twitter', 'upload', 'video', 'youtube'] as const;
export type TagIcon = (typeof TAG_ICONS)[number];

/** The tag icon of a platform: its own where the seeds draw one, else "other" (a torrent, an archive, any other site). */
export function platformIcon(platform: string): TagIcon {
  return (TAG_ICONS as readonly string[]).includes(platform) ? (platform as TagIcon) : 'other';
}

/** Host → platform of a cloud download's link; the platform is named only when the host is that site's. */
export function platformOfHost(hostname: string): Platform {
  const host = hostname.toLowerCase().replace(/^www\./, '');
  const known: [RegExp, Platform][] = [
    [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'],
    [/(^|\.)(twitter\.com|x\.com)$/, 'twitter'],
    [/(^|\.)tiktok\.com$/, 'tiktok'],
    [/(^|\.)(t\.me|telegram\.org)$/, 'telegram'],
    [/(^|\.)(facebook\.com|fb\.watch)$/, 'facebook'],
    [/(^|\.)pornhub\.com$/, 'pornhub'],
  ];
  return known.find(([re]) => re.test(host))?.[1] ?? 'other';
}
