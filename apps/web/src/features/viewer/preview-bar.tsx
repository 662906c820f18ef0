/**
 * The bar under the viewer: "current / total", a toggle for the thumbnail strip (E; remembered as
 * preview_bar_visible), and the strip itself, rendering about two screens ahead and one behind, with page buttons on
 * its sides while it overflows.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaTypeOf } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { Icon } from '../../components/icon';
import { OVERFLOW_CHECK_MS, stripPaging } from './viewer-rules';

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

  // Which page buttons show: checked on open, on resize and while scrolling, at most every 500 ms.
  const [paging, setPaging] = useState({ overflow: false, back: false, forward: false });
  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => setPaging(stripPaging(el.scrollLeft, el.scrollWidth, el.clientWidth));
    const later = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        check();
      }, OVERFLOW_CHECK_MS);
    };
    check();
    const ro = new ResizeObserver(later);
    ro.observe(el);
    el.addEventListener('scroll', later, { passive: true });
    return () => {
      clearTimeout(timer);
      ro.disconnect();
      el.removeEventListener('scroll', later);
    };
  }, [open, files.length]);
  const page = (dir: -1 | 1) => strip.current?.scrollBy({ left: dir * strip.current.clientWidth, behavior: 'smooth' });

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
        <div className="preview-strip-wrap">
          {paging.overflow && (
            <button
              className="strip-page back"
              aria-label={t('viewer.stripBack')}
              title={t('viewer.stripBack')}
              disabled={!paging.back}
              onClick={() => page(-1)}
            >
              <Icon name="chevron" />
            </button>
          )}
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
          {paging.overflow && (
            <button
              className="strip-page forward"
              aria-label={t('viewer.stripForward')}
              title={t('viewer.stripForward')}
              disabled={!paging.forward}
              onClick={() => page(1)}
            >
              <Icon name="chevron" />
            </button>
          )}
        </div>
      )}
    </div>
  );
}
