/**
 * Chooses a subtitle file from anywhere in the drive, inside the subtitles panel: folders to open and the .srt, .ass,
 * .ssa and .vtt files of the folder open, with the path as crumbs (as the folder picker browses).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FOLDER_KIND, LIMITS } from '@haul/shared/plain';
import type { Breadcrumb } from '@haul/shared';
import { Icon } from '../../components/icon';
import { errorMessage } from '../../lib/error-message';
import { LIVE_FILTERS, listFiles } from '../files/files-api';

const SUBTITLE_FILE = /\.(srt|ass|ssa|vtt)$/i;

export function SubtitlePicker({ onPick, onBack }: { onPick: (fileId: string) => void; onBack: () => void }) {
  const { t } = useTranslation();
  const [path, setPath] = useState<Breadcrumb[]>([]);
  const here = path.at(-1)?.id ?? '';
  const { data, isLoading, error } = useQuery({
    queryKey: ['subtitle-picker', here],
    queryFn: ({ signal }) => listFiles({ parentId: here, filters: LIVE_FILTERS, order: 'NAME_ASC', limit: LIMITS.listMax }, signal),
  });
  const items = (data?.files ?? []).filter((f) => f.kind === FOLDER_KIND || SUBTITLE_FILE.test(f.name));
  return (
    <div className="subtitle-picker">
      <div className="subtitle-picker-head">
        <button type="button" className="btn small" onClick={onBack}>
          {t('subtitles.back')}
        </button>
        <span>{t('subtitles.pickTitle')}</span>
      </div>
      <nav className="subtitle-crumbs" aria-label={t('subtitles.location')}>
        <button type="button" onClick={() => setPath([])}>
          {t('subtitles.root')}
        </button>
        {path.map((b, i) => (
          <span key={b.id}>
            {' / '}
            <button type="button" onClick={() => setPath(path.slice(0, i + 1))}>
              {b.name}
            </button>
          </span>
        ))}
      </nav>
      <ul className="subtitle-picker-list" aria-label={t('subtitles.pickTitle')}>
        {isLoading && <li className="subtitles-note">{t('subtitles.loading')}</li>}
        {error && <li className="subtitles-note">{errorMessage(error)}</li>}
        {data && items.length === 0 && <li className="subtitles-note">{t('subtitles.pickEmpty')}</li>}
        {items.map((f) => (
          <li key={f.id}>
            <button
              type="button"
              className="subtitle-picker-item"
              onClick={() => (f.kind === FOLDER_KIND ? setPath([...path, { id: f.id, name: f.name, parent_id: f.parent_id }]) : onPick(f.id))}
            >
              <Icon name={f.kind === FOLDER_KIND ? 'folder' : 'file'} size={16} />
              <span>{f.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
