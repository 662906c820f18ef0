/**
 * What can be done with the selection, as buttons (the same actions as the context menu). On a phone the actions with
 * an icon come first as icon buttons and the rest sit in a "more" menu, so none is cut off the screen.
 */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DriveFile } from '@haul/shared';
import { IconMenu } from '../../components/icon-menu';
import { Icon } from '../layout/icon';
import { useIsMobile } from '../layout/use-media';
import { visibleActions, type View } from './actions';
import { useSelection } from './selection-store';

/** Icon buttons shown on a phone before the rest go into "more". */
const PHONE_BUTTONS = 3;

export function SelectionBar({ files, view }: { files: DriveFile[]; view: View }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const clear = useSelection((s) => s.clear);
  const mobile = useIsMobile();
  if (files.length === 0) return null;
  const ctx = { files, view, navigate };
  const actions = visibleActions(ctx).filter((a) => a.id !== 'open');
  const withIcon = actions.filter((a) => a.icon);
  const shown = mobile ? withIcon.slice(0, PHONE_BUTTONS) : actions;
  const more = mobile ? actions.filter((a) => !shown.includes(a)) : [];
  return (
    <div className="selection-bar" role="toolbar" aria-label={t('selection.label')}>
      <button className="icon-btn" onClick={clear} aria-label={t('selection.clear')}>
        <Icon name="close" />
      </button>
      <span className="selection-count">{t('selection.count', { count: files.length })}</span>
      <div className="selection-actions">
        {shown.map((a) =>
          mobile ? (
            <button key={a.id} className={`icon-btn${a.danger ? ' danger' : ''}`} onClick={() => void a.perform(ctx)} aria-label={t(a.labelKey)} title={t(a.labelKey)}>
              <Icon name={a.icon!} />
            </button>
          ) : (
            <button key={a.id} className={`btn small${a.danger ? ' danger' : ''}`} onClick={() => void a.perform(ctx)}>
              {t(a.labelKey)}
            </button>
          ),
        )}
        {more.length > 0 && (
          <IconMenu label={t('selection.more')} button={<Icon name="more" />}>
            {more.map((a) => (
              <Menu.Item key={a.id} className={`menu-item${a.danger ? ' danger' : ''}`} onSelect={() => void a.perform(ctx)}>
                {t(a.labelKey)}
              </Menu.Item>
            ))}
          </IconMenu>
        )}
      </div>
    </div>
  );
}
