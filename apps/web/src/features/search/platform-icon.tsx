/**
 * The seeds' tag icons for where a file came from (`params.platform_icon`): simple line drawings in the app's icon
 * style, not the sites' logos. Media and folder tags use the app's own icons.
 */
import { platformIcon } from '@haul/shared/plain';
import type { TagIcon } from '@haul/shared';
import type { TFunction } from 'i18next';
import { Icon, type IconName } from '../../components/icon';

const PLATFORM_PATHS: Partial<Record<TagIcon, string>> = {
  // A play button in a rounded screen.
  youtube: 'M3 8a3 3 0 0 1 3-3h12a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3zM10 9v6l5-3z',
  // A bird's wing and beak, reduced to strokes.
  twitter: 'M4 18c7 1 12-3 12-10l3-2-3 .5A3.5 3.5 0 0 0 10 9c-3 0-5-1-6-3 0 4 2 6 4 7-1 1-3 1.5-4 1.5',
  // A note.
  tiktok: 'M14 4v10.5a3.5 3.5 0 1 1-3.5-3.5M14 4c.5 2.5 2.5 4 5 4',
  // A paper plane.
  telegram: 'M21 4 3 11l6 2 2 6 3-4 5 4zM9 13l12-9',
  // A lower-case f in a rounded square.
  facebook: 'M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM15 8h-1.5A1.5 1.5 0 0 0 12 9.5V21M10 13h5',
  // A screen with a play mark, for the adult site the seeds name.
  pornhub: 'M3 6h18v12H3zM8 10h3a1.5 1.5 0 0 1 0 3H8v-5M14 8v5M14 10.5h3M17 8v5',
  // Three linked dots.
  share: 'M8 12a3 3 0 1 1 0-.01M18 6a3 3 0 1 1 0-.01M18 18a3 3 0 1 1 0-.01M10.6 10.7l4.8-3.4M10.6 13.3l4.8 3.4',
  // A link from anywhere else (also torrents and archives).
  other: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
};

const APP_ICONS: Partial<Record<TagIcon, IconName>> = { audio: 'audio', folder: 'folder', image: 'image', star: 'star', upload: 'upload', video: 'video' };

/** A tag icon by the seeds' name. */
export function TagIconView({ name, size = 16 }: { name: TagIcon; size?: number }) {
  const own = APP_ICONS[name];
  if (own) return <Icon name={own} size={size} />;
  return (
    <svg className="i" viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" data-tag-icon={name}>
      <path d={PLATFORM_PATHS[name] ?? PLATFORM_PATHS.other} />
    </svg>
  );
}

/** The tag icon of a file's platform, when one was recorded. */
export function PlatformIcon({ platform, size }: { platform: string | undefined; size?: number }) {
  return platform ? <TagIconView name={platformIcon(platform)} size={size} /> : null;
}

const SITES: Record<string, string> = { youtube: 'YouTube', twitter: 'X (Twitter)', tiktok: 'TikTok', telegram: 'Telegram', facebook: 'Facebook', pornhub: 'Pornhub' };

/**
 * A platform's name: the site's own name, or words for uploads, shares, torrents, archives and other links, as a
 * filter tag ("Uploads") or said of one file ("Uploaded").
 */
export function platformName(t: TFunction, platform: string, of: 'tag' | 'file' = 'tag'): string {
  return SITES[platform] ?? t(`search.${of === 'tag' ? 'platform' : 'from'}_${platform}`, { defaultValue: platform });
}
