/**
 * The bar under the viewer: "current / total", a toggle for the thumbnail strip (E; remembered as
 * preview_bar_visible), and the strip itself, rendering about two screens ahead and one behind.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaTypeOf, type DriveFile } from '@haul/shared';
import { Icon } from '../layout/icon';

const THUMB_W = 96;

export function PreviewBar({
  files,
  index,
  open,
  onToggle,
  onShow,
}: {
  files: DriveFile[];
  index: number;
  open: boolean;
  onToggle: () => void;
  onShow: (i: number) => void;
}) {
  const { t } = useTranslation();
  const strip = useRef<HTMLDivElement>(null);
  const perScreen = Math.max(4, Math.ceil((strip.current?.clientWidth ?? window.innerWidth) / THUMB_W));
  const from = Math.max(0, index - perScreen);
  const to = Math.min(files.length, index + 2 * perScreen + 1);

  useEffect(() => {
    strip.current?.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest', inline: 'center', behavior: 'smooth' });
  }, [index, open]);

  if (files.length < 2) return null;
  return (
    <div className={`preview-bar${open ? ' open' : ''}`}>
      <div className="preview-head">
        <span className="preview-count" data-testid="viewer-count">
          {index + 1} / {files.length}
        </span>
        <button className="btn small ghost" onClick={onToggle} aria-expanded={open} aria-keyshortcuts="E">
          {open ? t('viewer.hideStrip') : t('viewer.showStrip')}
        </button>
      </div>
      {open && (
        <div className="preview-strip" ref={strip} role="listbox" aria-label={t('viewer.strip')}>
          <div style={{ width: from * THUMB_W, flex: 'none' }} />
          {files.slice(from, to).map((f, i) => {
            const at = from + i;
            const kind = mediaTypeOf(f.name, f.mime_type) ?? 'file';
            return (
              <button
                key={f.id}
                role="option"
                aria-selected={at === index}
                aria-current={at === index}
                aria-label={f.name}
                className="preview-thumb"
                onClick={() => onShow(at)}
              >
                {f.thumbnail_link ? <img src={f.thumbnail_link} alt="" loading="lazy" /> : <Icon name={kind} size={28} />}
              </button>
            );
          })}
          <div style={{ width: (files.length - to) * THUMB_W, flex: 'none' }} />
        </div>
      )}
    </div>
  );
}
