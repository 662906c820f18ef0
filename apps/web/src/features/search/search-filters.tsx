/**
 * Filter tags of search mode (seed 000 §2: kind folder, star, mime type, platform) with their tag icons, where it
 * searches, and leaving search.
 */
import './search.css';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { FOLDER_KIND } from '@haul/shared/plain';
import type { SearchFilter, TagIcon } from '@haul/shared';
import { PlatformIcon, platformName, TagIconView } from './platform-icon';
import { entryFolderOf, writeSearch } from './search-state';

type Tag = { key: string; icon: TagIcon; on: (f: SearchFilter) => boolean; toggle: (f: SearchFilter) => SearchFilter };

const TAGS: Tag[] = [
  { key: 'star', icon: 'star', on: (f) => !!f.star, toggle: (f) => ({ ...f, star: !f.star || undefined }) },
  {
    key: 'folder',
    icon: 'folder',
    on: (f) => f.kind === FOLDER_KIND,
    toggle: (f) => ({ ...f, kind: f.kind === FOLDER_KIND ? undefined : FOLDER_KIND, mimeType: undefined }),
  },
  ...(['image', 'video', 'audio'] as const).map((m) => ({
    key: m,
    icon: m,
    on: (f: SearchFilter) => f.mimeType === `${m}/`,
    toggle: (f: SearchFilter) => ({ ...f, mimeType: f.mimeType === `${m}/` ? undefined : `${m}/`, kind: undefined }),
  })),
];

/**
 * Where files came from, as tags: the platforms Haul records. The adult site the seeds name is recognised and filtered
 * on when asked for in the address, but has no tag of its own in the bar.
 */
const PLATFORM_TAGS = ['upload', 'share', 'youtube', 'twitter', 'tiktok', 'telegram', 'facebook', 'bt', 'archive', 'other'] as const;

/** The views a search can be kept to, by their first path segment. */
const SCOPES: Record<string, string> = { star: 'nav.star', trash: 'nav.trash', recent: 'nav.recent', bookmarks: 'nav.bookmarks' };

export function SearchFilters({ filter }: { filter: SearchFilter }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const view = useLocation().pathname.split('/')[1] ?? 'all';
  const entry = view === 'all' ? entryFolderOf(params) : undefined;
  const apply = (f: SearchFilter) => setParams(writeSearch(params, f, entryFolderOf(params)));
  const scope = SCOPES[view];
  return (
    <div className="search-filters" role="group" aria-label={t('search.filters')}>
      {/* Where the search looks, said, and widened in one click: a search from Starred or Trash keeps to them. */}
      {entry ? (
        <span className="search-scope" role="group" aria-label={t('search.scopeLabel')}>
          <button className={`chip${filter.folderId ? ' on' : ''}`} aria-pressed={!!filter.folderId} onClick={() => apply({ ...filter, folderId: entry })}>
            {t('search.scopeFolder')}
          </button>
          <button className={`chip${filter.folderId ? '' : ' on'}`} aria-pressed={!filter.folderId} onClick={() => apply({ ...filter, folderId: undefined })}>
            {t('nav.all')}
          </button>
        </span>
      ) : (
        <span className="search-scope">{t('search.scope', { place: t(scope ?? 'nav.all') })}</span>
      )}
      {scope && (
        <button className="link" onClick={() => navigate(`/all?${writeSearch(new URLSearchParams(), { ...filter, folderId: undefined }).toString()}`)}>
          {t('search.everywhere')}
        </button>
      )}
      {TAGS.map((tag) => (
        <button
          key={tag.key}
          className={`chip${tag.on(filter) ? ' on' : ''}`}
          aria-pressed={tag.on(filter)}
          onClick={() => apply(tag.toggle(filter))}
        >
          <TagIconView name={tag.icon} />
          {t(`search.tag_${tag.key}`)}
        </button>
      ))}
      <span className="search-platforms" role="group" aria-label={t('search.platforms')}>
        {[...PLATFORM_TAGS, ...(filter.platform && !(PLATFORM_TAGS as readonly string[]).includes(filter.platform) ? [filter.platform] : [])].map((p) => (
          <button
            key={p}
            className={`chip${filter.platform === p ? ' on' : ''}`}
            aria-pressed={filter.platform === p}
            onClick={() => apply({ ...filter, platform: filter.platform === p ? undefined : p })}
          >
            <PlatformIcon platform={p} />
            {platformName(t, p)}
          </button>
        ))}
      </span>
      <button className="link" onClick={() => apply({})}>
        {t('search.exit')}
      </button>
    </div>
  );
}

/** The server filters for a search (the same matching as the shared rule). */
export function searchFilters(f: SearchFilter): Record<string, Record<string, unknown>> {
  return {
    ...(f.name ? { name: { contains: f.name } } : {}),
    ...(f.star ? { system_tag: { in: 'STAR' } } : {}),
    ...(f.kind ? { kind: { eq: f.kind } } : {}),
    ...(f.mimeType ? { mime_type: { prefix: f.mimeType } } : {}),
    ...(f.platform ? { platform: { eq: f.platform } } : {}),
    ...(f.folderId ? { folder_id: { eq: f.folderId } } : {}),
  };
}
