/**
 * A photo: fit to the screen, zoom (wheel, +/-, pinch; 0.15–6.7 in steps of 1.1), double-click or double-tap for 3x
 * and back, drag to pan, rotate 90° anticlockwise (remembered per photo). Formats the browser cannot decode are shown
 * through the server's large thumbnail.
 */
import { useEffect, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { extensionOf } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { Icon } from '../../components/icon';
import { getDeg, setDeg } from './play-records';
import { clampZoom, ZOOM } from './playback-rules';
import type { MediaFault } from './viewer-errors';

/** What browsers decode themselves; anything else goes through the thumbnail (HEIC, TIFF, …). */
const BROWSER_IMAGES = new Set(['jpg', 'jpeg', 'jpe', 'png', 'gif', 'webp', 'avif', 'bmp', 'ico']);

export function imageSource(file: DriveFile): string[] {
  const large = file.thumbnail_link ? file.thumbnail_link.replace(/([?&]size=)[A-Z_]+/, '$1SIZE_LARGE') : '';
  const original = BROWSER_IMAGES.has(extensionOf(file.name)) ? file.web_content_link : '';
  return [original, large].filter(Boolean);
}

export function ImageView({ file, onError }: { file: DriveFile; onError: (fault?: MediaFault) => void }) {
  const { t } = useTranslation();
  const sources = imageSource(file);
  const [which, setWhich] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const [scale, setScale] = useState(1);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const [deg, setDegState] = useState(() => getDeg(file.id));
  const drag = useRef<{ x: number; y: number; ox: number; oy: number } | null>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ d: number; scale: number } | null>(null);

  useEffect(() => {
    if (sources.length === 0) onError({});
  }, [sources.length, onError]);

  const zoom = (next: number) => {
    if (!loaded) return;
    const s = clampZoom(next);
    setScale(s);
    if (s <= 1) setOffset({ x: 0, y: 0 });
  };
  const rotate = () => {
    if (!loaded) return;
    const next = deg - 90;
    setDegState(next);
    setDeg(file.id, next);
    zoom(1);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '+' || e.key === '=') zoom(scale * ZOOM.step);
      else if (e.key === '-') zoom(scale / ZOOM.step);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const onWheel = (e: WheelEvent) => zoom(e.deltaY < 0 ? scale * ZOOM.step : scale / ZOOM.step);
  const onPointerDown = (e: PointerEvent) => {
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      pinch.current = { d: Math.hypot(a!.x - b!.x, a!.y - b!.y), scale };
    } else if (scale > 1) {
      drag.current = { x: e.clientX, y: e.clientY, ox: offset.x, oy: offset.y };
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    }
  };
  const onPointerMove = (e: PointerEvent) => {
    if (pointers.current.has(e.pointerId)) pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch.current && pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      zoom((pinch.current.scale * Math.hypot(a!.x - b!.x, a!.y - b!.y)) / pinch.current.d);
    } else if (drag.current) {
      setOffset({ x: drag.current.ox + e.clientX - drag.current.x, y: drag.current.oy + e.clientY - drag.current.y });
    }
  };
  const onPointerUp = (e: PointerEvent) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
    drag.current = null;
  };

  return (
    <div className="image-view">
      <div
        className="image-stage"
        onWheel={onWheel}
        onDoubleClick={() => zoom(scale === 1 ? ZOOM.double : 1)}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        data-scale={scale}
      >
        {!loaded && <div className="viewer-spinner" role="status" aria-label={t('common.loading')} />}
        {sources[which] && (
          <img
            key={sources[which]}
            src={sources[which]}
            alt={file.name}
            draggable={false}
            className={loaded ? 'ready' : ''}
            style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${scale}) rotate(${deg}deg)` }}
            onLoad={() => setLoaded(true)}
            onError={() => (which + 1 < sources.length ? setWhich(which + 1) : onError({ link: sources[which] }))}
          />
        )}
      </div>
      <div className="image-tools" role="toolbar" aria-label={t('viewer.imageTools')}>
        <button
          className="icon-btn"
          aria-label={t('viewer.zoomOut')}
          title={t('viewer.zoomOut')}
          onClick={() => zoom(scale / ZOOM.step)}
          disabled={scale <= ZOOM.min}
        >
          −
        </button>
        <span className="zoom-level" aria-live="polite">
          {Math.round(scale * 100)}%
        </span>
        <button
          className="icon-btn"
          aria-label={t('viewer.zoomIn')}
          title={t('viewer.zoomIn')}
          onClick={() => zoom(scale * ZOOM.step)}
          disabled={scale >= ZOOM.max}
        >
          +
        </button>
        <button className="icon-btn" aria-label={t('viewer.rotate')} title={t('viewer.rotate')} onClick={rotate}>
          <Icon name="rotate" />
        </button>
      </div>
    </div>
  );
}
