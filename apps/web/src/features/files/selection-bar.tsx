/** What can be done with the selection, as buttons (the same actions as the context menu). */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DriveFile } from '@haul/shared';
import { Icon } from '../layout/icon';
import { visibleActions, type View } from './actions';
import { useSelection } from './selection-store';

export function SelectionBar({ files, view }: { files: DriveFile[]; view: View }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const clear = useSelection((s) => s.clear);
  if (files.length === 0) return null;
  const ctx = { files, view, navigate };
  return (
    <div className="selection-bar" role="toolbar" aria-label={t('selection.label')}>
      <button className="icon-btn" onClick={clear} aria-label={t('selection.clear')}>
        <Icon name="close" />
      </button>
      <span className="selection-count">{t('selection.count', { count: files.length })}</span>
      <div className="selection-actions">
        {visibleActions(ctx)
          .filter((a) => a.id !== 'open')
          .map((a) => (
            <button key={a.id} className={`btn small${a.danger ? ' danger' : ''}`} onClick={() => void a.perform(ctx)}>
              {t(a.labelKey)}
            </button>
          ))}
      </div>
    </div>
  );
}
