/**
 * The list view's column titles: the file grid's first row, its column headers, held at the top as the list scrolls.
 * Where the list is sorted by the display mode (All files, Starred, search), Name, Size and Modified are buttons that
 * sort it and reverse it when pressed again, by mouse or keyboard (tab stops after the list itself); the sorted
 * column carries aria-sort. The row is no file: it has no data-item, and the grid's keys and drag box leave it alone.
 */
import './list-head.css';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { SortOrder } from '@haul/shared';
import { Icon } from '../../components/icon';

type Field = 'name' | 'size' | 'modified';

/** Each column's orders, the first click's first: names A to Z, the largest and the newest on top. */
const ORDERS: Record<Field, [SortOrder, SortOrder]> = {
  name: ['NAME_ASC', 'NAME_DESC'],
  size: ['SIZE_DESC', 'SIZE_ASC'],
  modified: ['MODIFY_TIME_DESC', 'MODIFY_TIME_ASC'],
};

/** Marks the header row, so the grid's handlers can tell it from the files. */
export const LIST_HEAD = '.list-head';

export interface ListHeadProps {
  showLocation?: boolean;
  /** What the time column shows: the modified time unless the screen says otherwise (time left, last activity). */
  timeLabel?: string;
  order?: SortOrder;
  onOrder?: (order: SortOrder) => void;
  ref?: Ref<HTMLDivElement>;
}

export function ListHead({ showLocation, timeLabel, order, onOrder, ref }: ListHeadProps) {
  const { t } = useTranslation();
  const column = (label: string, field?: Field) => {
    if (!field || !onOrder) return <span role="columnheader">{label}</span>;
    const [first, second] = ORDERS[field];
    const active = order === first || order === second;
    const ascending = !!order?.endsWith('_ASC');
    return (
      <span role="columnheader" aria-sort={active ? (ascending ? 'ascending' : 'descending') : undefined}>
        <button type="button" className={`list-sort${active ? ' active' : ''}`} onClick={() => onOrder(order === first ? second : first)}>
          {label}
          {active && <Icon name="chevron" size={12} className={ascending ? 'up' : 'down'} />}
        </button>
      </span>
    );
  };
  return (
    <div ref={ref} className={`list-head${showLocation ? ' with-location' : ''}`} role="row" aria-rowindex={1}>
      {/* The rows' tick box and icon columns, which have no title. */}
      <span aria-hidden="true" />
      <span aria-hidden="true" />
      {column(t('files.name'), 'name')}
      {column(t('files.size'), 'size')}
      {timeLabel ? column(timeLabel) : column(t('files.modified'), 'modified')}
      {showLocation && column(t('files.location'))}
    </div>
  );
}
