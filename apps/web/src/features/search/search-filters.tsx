/** Filter tags of search mode (starred, folders, images, videos, audio), where it searches, and leaving search. */
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { FOLDER_KIND, type SearchFilter } from '@haul/shared';
import { writeSearch } from './search-state';

type Tag = { key: string; on: (f: SearchFilter) => boolean; toggle: (f: SearchFilter) => SearchFilter };

const TAGS: Tag[] = [
  { key: 'star', on: (f) => !!f.star, toggle: (f) => ({ ...f, star: !f.star || undefined }) },
  {
    key: 'folder',
    on: (f) => f.kind === FOLDER_KIND,
    toggle: (f) => ({ ...f, kind: f.kind === FOLDER_KIND ? undefined : FOLDER_KIND, mimeType: undefined }),
  },
  ...(['image', 'video', 'audio'] as const).map((m) => ({
    key: m,
    on: (f: SearchFilter) => f.mimeType === `${m}/`,
    toggle: (f: SearchFilter) => ({ ...f, mimeType: f.mimeType === `${m}/` ? undefined : `${m}/`, kind: undefined }),
  })),
];

/** The views a search can be kept to, by their first path segment. */
const SCOPES: Record<string, string> = { star: 'nav.star', trash: 'nav.trash', recent: 'nav.recent', bookmarks: 'nav.bookmarks' };

export function SearchFilters({ filter }: { filter: SearchFilter }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const view = useLocation().pathname.split('/')[1] ?? 'all';
  const apply = (f: SearchFilter) => setParams(writeSearch(params, f, params.get('entry_folder_id') ?? undefined));
  const scope = SCOPES[view];
  return (
    <div className="search-filters" role="group" aria-label={t('search.filters')}>
      {/* Where the search looks, said, and widened in one click: a search from Starred or Trash keeps to them. */}
      <span className="search-scope">{t('search.scope', { place: t(scope ?? 'nav.all') })}</span>
      {scope && (
        <button className="link" onClick={() => navigate(`/all?${writeSearch(new URLSearchParams(), filter).toString()}`)}>
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
          {t(`search.tag_${tag.key}`)}
        </button>
      ))}
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
  };
}
