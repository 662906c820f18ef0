/**
 * The full-screen viewer (seed 001 §2, §4): a dark overlay showing one file of a list, with its name (click to
 * rename), star, download, close (Esc); previous and next (buttons, keys, swipe); drag down to close; the preview
 * bar; an error panel with retry and next. Details come from a cache of 30 and the 3 files on each side are fetched
 * ahead when the browser is idle.
 */
import './viewer.css';
import { useCallback, useEffect, useRef, useState, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { DriveFile } from '@haul/shared';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { useDialog } from '../files/dialog-store';
import { clickDownload, setStar } from '../files/file-mutations';
import { Icon } from '../layout/icon';
import { useIsMobile } from '../layout/use-media';
import { AudioView } from './audio-view';
import { ImageView } from './image-view';
import { PdfView } from './pdf-view';
import { PreviewBar } from './preview-bar';
import { keyTakenByFocus, toggleFullscreen } from './use-media-element';
import { TextView } from './text-view';
import { VideoView } from './video-view';
import { viewKindOf } from './view-kind';
import { ViewerMenu } from './viewer-menu';
import { forgetDetail, viewerDetail } from './viewer-api';
import { useViewer } from './viewer-store';
import { PREVIEW_BAR_KEY, saveSetting } from '../settings/settings-sync';

const PREFETCH = 3;

type Loaded = { file: DriveFile; detail?: DriveFile; error?: unknown };

export default function Viewer() {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const { files, index, scene, source, close, go, show, replace } = useViewer();
  const file = files[index];
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [mediaError, setMediaError] = useState(false);
  const [bar, setBar] = useState(() => localStorage.getItem(PREVIEW_BAR_KEY) !== '0');
  const [drag, setDrag] = useState(0);
  const touch = useRef<{ x: number; y: number } | null>(null);
  const dialogOpen = useDialog((s) => s.dialog !== null);
  const inDrive = source.kind === 'drive';

  const load = useCallback(
    (f: DriveFile, fresh = false) => {
      if (fresh) forgetDetail(f, source);
      viewerDetail(f, source).then(
        (detail) => setLoaded((cur) => (cur?.file.id === f.id || !cur ? { file: f, detail } : cur)),
        (error) => setLoaded((cur) => (cur?.file.id === f.id || !cur ? { file: f, error } : cur)),
      );
    },
    [source],
  );

  useEffect(() => {
    if (!file) return;
    setLoaded({ file });
    setMediaError(false);
    load(file);
    const idle = (window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 200))) as (cb: () => void) => number;
    const handle = idle(() => {
      for (let d = 1; d <= PREFETCH; d++)
        for (const f of [files[index + d], files[index - d]]) if (f) viewerDetail(f, source).catch(() => undefined);
    });
    return () => (window.cancelIdleCallback ?? clearTimeout)(handle);
    // Only a new file starts a load; the list changing around it (a star) does not.
  }, [file?.id]);

  // A rename done in the dialog shows here once the dialog closes.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !dialogOpen && file) load(file, true);
    wasOpen.current = dialogOpen;
  }, [dialogOpen, file, load]);

  const toggleBar = useCallback(() => {
    setBar((b) => {
      localStorage.setItem(PREVIEW_BAR_KEY, b ? '0' : '1');
      saveSetting('preview_bar_visible', !b);
      return !b;
    });
  }, []);

  const detail = loaded?.file.id === file?.id ? loaded?.detail : undefined;
  const kind = file ? viewKindOf(file) : null;
  // Players keep plain arrows for seeking; everything else switches files with them.
  const player = kind === 'video' || kind === 'audio';

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (useDialog.getState().dialog || keyTakenByFocus(e)) return;
      const mod = e.ctrlKey || e.metaKey || e.altKey;
      if (e.key === 'Escape') {
        if (!document.fullscreenElement) close();
      } else if (e.key === 'e' || e.key === 'E') {
        if (!mod) toggleBar();
      } else if (e.key === 'PageUp') go(-1);
      else if (e.key === 'PageDown') go(1);
      else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && (mod || !player || mediaError || !detail))
        go(e.key === 'ArrowLeft' ? -1 : 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [close, go, toggleBar, player, mediaError, detail]);

  if (!file) return null;

  const fullscreen = () => toggleFullscreen(document.querySelector<HTMLElement>('.viewer'), () => toast.error(t('viewer.noFullscreen')));
  const canRename = inDrive && scene !== 'home_recent';
  const starred = (detail ?? file).star === 1;
  const toggleStar = async () => {
    const f = detail ?? file;
    if (await setStar([f], !starred)) replace({ ...f, star: starred ? 0 : 1 });
    load(file, true);
  };
  const download = () => {
    const link = detail?.web_content_link;
    if (link) clickDownload(link, detail.name);
    else toast.error(t('files.cannotDownload'));
  };

  // Touch: a horizontal swipe past a threshold changes files, a long drag down closes.
  const onTouchStart = (e: TouchEvent) => {
    const p = e.touches[0]!;
    // Swipes from the very edge belong to the system; text and PDF pages scroll under the finger.
    const scrolls = (e.target as HTMLElement).closest?.('.viewer-scroll');
    touch.current = scrolls || p.clientX < 10 || p.clientX > window.innerWidth - 10 ? null : { x: p.clientX, y: p.clientY };
  };
  const onTouchMove = (e: TouchEvent) => {
    if (!touch.current || e.touches.length > 1) return;
    const dy = e.touches[0]!.clientY - touch.current.y;
    if (dy > 0 && Math.abs(dy) > Math.abs(e.touches[0]!.clientX - touch.current.x)) setDrag(dy);
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = touch.current;
    touch.current = null;
    setDrag(0);
    if (!start) return;
    const p = e.changedTouches[0]!;
    const dx = p.clientX - start.x;
    const dy = p.clientY - start.y;
    if (dy > window.innerHeight / 4 && Math.abs(dy) > Math.abs(dx)) return close();
    if (Math.abs(dx) > window.innerWidth * (mobile ? 0.25 : 0.33) && Math.abs(dx) > Math.abs(dy)) go(dx > 0 ? -1 : 1);
  };

  const err = loaded?.file.id === file.id ? loaded.error : undefined;
  const failed = err !== undefined || mediaError;
  const errorTitle =
    isApiError(err, 'file_in_recycle_bin') || isApiError(err, 'file_not_found')
      ? t('viewer.deleted')
      : err
        ? errorMessage(err)
        : t(`viewer.unsupported.${kind ?? 'file'}`);

  return (
    <div
      className={`viewer${mobile ? ' mobile' : ''}`}
      role="dialog"
      aria-modal="true"
      aria-label={file.name}
      style={drag ? { opacity: Math.max(0.3, 1 - drag / window.innerHeight), transform: `translateY(${drag}px)` } : undefined}
      onTouchStart={onTouchStart}
      onTouchMove={onTouchMove}
      onTouchEnd={onTouchEnd}
    >
      <header className="viewer-head">
        {canRename ? (
          <button
            className="viewer-name"
            title={t('viewer.renameHint')}
            onClick={() => useDialog.getState().open({ type: 'rename', file: detail ?? file })}
          >
            {(detail ?? file).name}
          </button>
        ) : (
          <span className="viewer-name">{(detail ?? file).name}</span>
        )}
        <div className="viewer-actions">
          {inDrive && !mobile && (
            <button
              className={`icon-btn${starred ? ' on' : ''}`}
              aria-label={starred ? t('actions.unstar') : t('actions.star')}
              aria-pressed={starred}
              onClick={() => void toggleStar()}
            >
              <Icon name="star" />
            </button>
          )}
          {inDrive && !mobile && (
            <button className="icon-btn" aria-label={t('actions.share')} onClick={() => useDialog.getState().open({ type: 'share', files: [detail ?? file] })}>
              <Icon name="shared" />
            </button>
          )}
          <button className="icon-btn" aria-label={t('actions.download')} onClick={download} disabled={!detail}>
            <Icon name="download" />
          </button>
          <button className="icon-btn" aria-label={t('viewer.fullscreen')} onClick={fullscreen}>
            <Icon name="fullscreen" />
          </button>
          {inDrive && detail && <ViewerMenu file={detail} canRename={canRename} />}
          <button className="icon-btn" aria-label={t('common.close')} aria-keyshortcuts="Escape" onClick={close}>
            <Icon name="close" />
          </button>
        </div>
      </header>
      <main className="viewer-body">
        {index > 0 && (
          <button className="viewer-nav prev" aria-label={t('viewer.previous')} onClick={() => go(-1)}>
            <Icon name="chevron" size={28} />
          </button>
        )}
        <div className="viewer-content" key={file.id}>
          {failed ? (
            <div className="viewer-error" role="alert">
              <Icon name={player || kind === 'image' ? kind! : 'file'} size={56} />
              <h2>{errorTitle}</h2>
              <p className="muted">{err ? '' : t('viewer.unsupportedHint')}</p>
              <div className="viewer-error-actions">
                <button
                  className="btn"
                  onClick={() => {
                    setMediaError(false);
                    setLoaded({ file });
                    setTimeout(() => load(file, true), 500);
                  }}
                >
                  {t('viewer.retry')}
                </button>
                {index < files.length - 1 && (
                  <button className="btn primary" onClick={() => go(1)}>
                    {t('viewer.next')}
                  </button>
                )}
              </div>
            </div>
          ) : !detail ? (
            <div className="viewer-spinner" role="status" aria-label={t('common.loading')} />
          ) : kind === 'image' ? (
            <ImageView file={detail} onError={() => setMediaError(true)} />
          ) : kind === 'text' ? (
            <TextView file={detail} onError={() => setMediaError(true)} />
          ) : kind === 'pdf' ? (
            <PdfView file={detail} onError={() => setMediaError(true)} />
          ) : kind === 'video' ? (
            <VideoView
              file={detail}
              active={!dialogOpen}
              report={inDrive}
              onError={() => setMediaError(true)}
              onGo={go}
              onReload={() => load(file, true)}
              source={source}
            />
          ) : (
            <AudioView file={detail} active={!dialogOpen} report={inDrive} onError={() => setMediaError(true)} onGo={go} />
          )}
        </div>
        {index < files.length - 1 && (
          <button className="viewer-nav next" aria-label={t('viewer.next')} onClick={() => go(1)}>
            <Icon name="chevron" size={28} />
          </button>
        )}
      </main>
      <PreviewBar files={files} index={index} open={bar} onToggle={toggleBar} onShow={show} />
    </div>
  );
}
