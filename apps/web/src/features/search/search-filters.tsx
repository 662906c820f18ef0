/** Filter tags of search mode: starred, folders, images, videos, audio; and leaving search. */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
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

export function SearchFilters({ filter }: { filter: SearchFilter }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const apply = (f: SearchFilter) => setParams(writeSearch(params, f, params.get('entry_folder_id') ?? undefined));
  return (
    <div className="search-filters" role="group" aria-label={t('search.filters')}>
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
