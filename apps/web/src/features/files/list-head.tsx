/**
 * The list view's column titles. Where the list is sorted by the display mode (All files, Starred, search), Name, Size
 * and Modified sort it when clicked and reverse it when clicked again; the sorted column carries aria-sort. The row
 * stays hidden from assistive technology, as before: it is not part of the grid (whose rows are the files), and the
 * Sort menu beside the list is the way to sort by keyboard or screen reader, so its buttons take no tab stop.
 */
import './list-head.css';
import { useTranslation } from 'react-i18next';
import type { SortOrder } from '@haul/shared';
import { Icon } from '../layout/icon';

type Field = 'name' | 'size' | 'modified';

/** Each column's orders, the first click's first: names A to Z, the largest and the newest on top. */
const ORDERS: Record<Field, [SortOrder, SortOrder]> = {
  name: ['NAME_ASC', 'NAME_DESC'],
  size: ['SIZE_DESC', 'SIZE_ASC'],
  modified: ['MODIFY_TIME_DESC', 'MODIFY_TIME_ASC'],
};

export interface ListHeadProps {
  showLocation?: boolean;
  /** What the time column shows: the modified time unless the screen says otherwise (time left, last activity). */
  timeLabel?: string;
  order?: SortOrder;
  onOrder?: (order: SortOrder) => void;
}

export function ListHead({ showLocation, timeLabel, order, onOrder }: ListHeadProps) {
  const { t } = useTranslation();
  const column = (label: string, field?: Field) => {
    if (!field || !onOrder) return <span role="columnheader">{label}</span>;
    const [first, second] = ORDERS[field];
    const active = order === first || order === second;
    const ascending = !!order?.endsWith('_ASC');
    return (
      <span role="columnheader" aria-sort={active ? (ascending ? 'ascending' : 'descending') : undefined}>
        <button
          type="button"
          tabIndex={-1}
          className={`list-sort${active ? ' active' : ''}`}
          onClick={() => onOrder(order === first ? second : first)}
        >
          {label}
          {active && <Icon name="chevron" size={12} className={ascending ? 'up' : 'down'} />}
        </button>
      </span>
    );
  };
  return (
    <div className={`list-head${showLocation ? ' with-location' : ''}`} aria-hidden="true">
      <span />
      <span />
      {column(t('files.name'), 'name')}
      {column(t('files.size'), 'size')}
      {timeLabel ? column(timeLabel) : column(t('files.modified'), 'modified')}
      {showLocation && column(t('files.location'))}
    </div>
  );
}
