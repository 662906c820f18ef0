/** Sort order, folders on top, and list/grid, for the current folder (or every folder). */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import type { SortOrder } from '@haul/shared';
import { IconMenu } from '../../components/icon-menu';
import { Icon } from '../../components/icon';
import { useDisplayMode, type DisplayMode } from './display-mode-store';

const SORTS: { field: string; asc: SortOrder; desc: SortOrder }[] = [
  { field: 'name', asc: 'NAME_ASC', desc: 'NAME_DESC' },
  { field: 'modified', asc: 'MODIFY_TIME_ASC', desc: 'MODIFY_TIME_DESC' },
  { field: 'size', asc: 'SIZE_ASC', desc: 'SIZE_DESC' },
];

export function DisplayControls({ modeKey, mode }: { modeKey: string; mode: DisplayMode }) {
  const { t } = useTranslation();
  const update = useDisplayMode((s) => s.update);
  const everywhere = useDisplayMode((s) => s.orderSettingGlobal && s.viewSettingGlobal);
  const setGlobalSettings = useDisplayMode((s) => s.setGlobalSettings);
  return (
    <div className="display-controls">
      <IconMenu label={t('sort.label')} button={<Icon name="sort" />}>
        <Menu.RadioGroup value={mode.orderType} onValueChange={(v) => update(modeKey, { orderType: v as SortOrder })}>
          {SORTS.flatMap((s) =>
            (['asc', 'desc'] as const).map((dir) => (
              <Menu.RadioItem key={s[dir]} value={s[dir]} className="menu-item">
                <Menu.ItemIndicator className="menu-check">✓</Menu.ItemIndicator>
                {t(`sort.${s.field}_${dir}`)}
              </Menu.RadioItem>
            )),
          )}
          {/* Type: by extension (A to Z, or the seeds' Z to A), then by name. */}
          {(['TYPE_ASC', 'TYPE_DESC'] as const).map((order) => (
            <Menu.RadioItem key={order} value={order} className="menu-item">
              <Menu.ItemIndicator className="menu-check">✓</Menu.ItemIndicator>
              {t(order === 'TYPE_ASC' ? 'sort.type_asc' : 'sort.type_desc')}
            </Menu.RadioItem>
          ))}
        </Menu.RadioGroup>
        <Menu.Separator className="menu-sep" />
        <Menu.CheckboxItem
          className="menu-item"
          checked={mode.pinFoldersTop}
          onCheckedChange={(c) => update(modeKey, { pinFoldersTop: c === true })}
        >
          <Menu.ItemIndicator className="menu-check">✓</Menu.ItemIndicator>
          {t('sort.foldersFirst')}
        </Menu.CheckboxItem>
        <Menu.CheckboxItem
          className="menu-item"
          checked={everywhere}
          onCheckedChange={(c) => setGlobalSettings({ orderSettingGlobal: c === true, viewSettingGlobal: c === true })}
        >
          <Menu.ItemIndicator className="menu-check">✓</Menu.ItemIndicator>
          {t('sort.everywhere')}
        </Menu.CheckboxItem>
      </IconMenu>
      <button
        className="icon-btn"
        aria-label={mode.viewType === 'grid' ? t('view.list') : t('view.grid')}
        title={mode.viewType === 'grid' ? t('view.list') : t('view.grid')}
        onClick={() => update(modeKey, { viewType: mode.viewType === 'grid' ? 'list' : 'grid' })}
      >
        <Icon name={mode.viewType === 'grid' ? 'list' : 'grid'} />
      </button>
    </div>
  );
}
