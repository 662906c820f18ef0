/** One file or folder as a list row or a grid card. */
import { memo } from 'react';
import i18n from 'i18next';
import { formatSize } from '@haul/shared/plain';
import type { DriveFile, EventType } from '@haul/shared';
import { Icon } from '../../components/icon';
import { highlightParts } from '../search/search-state';
import { iconFor, isFolder } from './file-kind';
import { formatDate, formatTime, timeLeft } from './format-time';
import { ItemLocation } from './item-location';

export { iconFor };

export function Highlighted({ name, keyword }: { name: string; keyword?: string }) {
  return <>{highlightParts(name, keyword).map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>;
}

export interface ItemProps {
  file: DriveFile;
  selected: boolean;
  keyword?: string;
  /** Trash rows show the time left before the item is deleted for good instead of the modified time. */
  showTimeLeft?: boolean;
  /** The interface language; a prop rather than a hook per row, which would cost on every scroll frame. */
  locale: string;
  /** Search results say which folder each is in. */
  location?: boolean;
  /** Recent rows say what last happened to the file and when, instead of its modified time. */
  activity?: FileActivity;
}

/** The last event of a file (Recent): its type and time. */
export interface FileActivity {
  type: EventType;
  time: string;
  /** Arrived since Recent was last looked at: marked "New" for this visit. */
  fresh?: boolean;
}

/** "Viewed · 10:32": the event's words (recent.event_view…) and its time. */
export function activityText(a: FileActivity, locale: string): string {
  return `${i18n.t(`recent.event_${a.type.replace(/^TYPE_/, '').toLowerCase()}`)} · ${formatTime(a.time, locale)}`;
}

function timeLeftText(iso: string): string {
  const left = timeLeft(iso);
  if (!left) return '-';
  return 'days' in left ? i18n.t('trash.daysLeft', { count: left.days }) : i18n.t('trash.hoursLeft', { count: left.hours });
}

export const FileRow = memo(function FileRow({ file, selected, keyword, showTimeLeft, locale, location, activity }: ItemProps) {
  const folder = isFolder(file);
  return (
    <>
      <span className={`check${selected ? ' on' : ''}`} data-check aria-hidden="true">
        {selected && <Icon name="check" size={14} />}
      </span>
      <span className={`ficon ${iconFor(file)}`} aria-hidden="true">
        <Icon name={iconFor(file)} size={22} />
      </span>
      <span className="fname" role="gridcell" title={file.name}>
        <Highlighted name={file.name} keyword={keyword} />
        {file.star === 1 && <Icon name="star" size={14} className="star-badge" />}
        {activity?.fresh && <span className="new-badge">{i18n.t('recent.new')}</span>}
        <small className="only-mobile fsub">
          {folder ? '' : `${formatSize(file.size, 1, locale)} · `}
          {location ? <ItemLocation file={file} /> : activity ? activityText(activity, locale) : formatTime(file.modified_time, locale)}
        </small>
      </span>
      <span className="fsize hide-mobile" role="gridcell">{folder ? '-' : formatSize(file.size, 1, locale)}</span>
      <span className="ftime hide-mobile" role="gridcell">
        {showTimeLeft ? timeLeftText(file.delete_time) : activity ? activityText(activity, locale) : formatTime(file.modified_time, locale)}
      </span>
      {/* Last, so a click in the middle of a row lands on the row rather than on the link. */}
      {location && (
        <span className="floc hide-mobile" role="gridcell">
          <ItemLocation file={file} />
        </span>
      )}
    </>
  );
});

export const FileCard = memo(function FileCard({ file, selected, keyword, locale, location }: ItemProps) {
  return (
    <>
      <span className={`check${selected ? ' on' : ''}`} data-check aria-hidden="true">
        {selected && <Icon name="check" size={14} />}
      </span>
      <span className={`ficon big ${iconFor(file)}`}>
        <Icon name={iconFor(file)} size={48} />
        {file.thumbnail_link && (
          // Drawn over the icon; a link that no longer works just uncovers it. Keyed by link: a card reused for
          // another file must not keep a hidden (failed) image.
          <img
            key={file.thumbnail_link}
            className="fthumb"
            src={file.thumbnail_link}
            alt=""
            loading="lazy"
            decoding="async"
            onError={(e) => (e.currentTarget.hidden = true)}
          />
        )}
      </span>
      <span className="fname" title={file.name}>
        <Highlighted name={file.name} keyword={keyword} />
      </span>
      {/* One line whatever the locale: the day only (the time in the tooltip), cut with an ellipsis if need be. */}
      <small className="fsub" title={isFolder(file) ? formatTime(file.modified_time, locale) : undefined}>
        {file.star === 1 && <Icon name="star" size={12} className="star-badge" />}
        {isFolder(file) ? formatDate(file.modified_time, locale) : formatSize(file.size, 1, locale)}
      </small>
      {location && (
        <small className="floc">
          <ItemLocation file={file} />
        </small>
      )}
    </>
  );
});
