/**
 * The full-screen viewer (seed 001 §2, §4): a dark overlay showing one file of a list, with its name (click to
 * rename), star, download, close (Esc); previous and next (buttons, keys, swipe); drag down to close; the preview
 * bar; an error panel with retry and next. Details come from a cache of 30 and the 3 files on each side are fetched
 * ahead when the browser is idle.
 */
import './viewer.css';
import './viewer-popups.css';
import { useCallback, useEffect, useMemo, useRef, useState, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { toast } from 'sonner';
import type { DriveFile } from '@haul/shared';
import { useDialog } from '../../app/dialogs/dialog-store';
import { clickDownload, setStar } from '../files/file-mutations';
import { Icon } from '../../components/icon';
import { useIsMobile } from '../layout/use-media';
import { AudioView } from './audio-view';
import { ErrorPopup } from './error-popup';
import { diagnose } from './failure-diagnosis';
import { ImageView } from './image-view';
import { PdfView } from './pdf-view';
import { PreviewBar } from './preview-bar';
import { keyTakenByFocus, toggleFullscreen } from './use-media-element';
import { useModalFocus } from './use-modal-focus';
import { TextView } from './text-view';
import { VideoView } from './video-view';
import { viewKindOf } from './view-kind';
import { ViewerMenu } from './viewer-menu';
import { forgetDetail, viewerDetail } from './viewer-api';
import { inPlayerWindow } from './viewer-address';
import { failureOfCall, failureOfDetail, type MediaFault, type ViewerFailure } from './viewer-errors';
import { useViewer } from './viewer-store';
import { ARROW_DEBOUNCE_MS, debounce, swipeOutcome } from './viewer-rules';
import { PREVIEW_BAR_KEY } from '../settings/setting-keys';
import { saveSetting } from '../settings/settings-sync';

const PREFETCH = 3;

type Loaded = { file: DriveFile; detail?: DriveFile; error?: unknown };

export default function Viewer() {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const { files, index, scene, source, close, go, show, replace } = useViewer();
  const file = files[index];
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [fault, setFault] = useState<ViewerFailure | null>(null);
  const shownId = useRef('');
  shownId.current = file?.id ?? '';
  const [bar, setBar] = useState(() => localStorage.getItem(PREVIEW_BAR_KEY) !== '0');
  const [drag, setDrag] = useState(0);
  const touch = useRef<{ x: number; y: number } | null>(null);
  const dialogOpen = useDialog((s) => s.dialog !== null);
  // An external player takes over: what plays here pauses (seed 001 §4).
  const handedOff = useDialog((s) => s.dialog?.type === 'external-player');
  const playerWindow = inPlayerWindow(useLocation().search);
  // Haul's player window closes as a whole.
  const shut = useCallback(() => (playerWindow ? window.close() : close()), [playerWindow, close]);
  const inDrive = source.kind === 'drive';
  const root = useModalFocus<HTMLDivElement>();

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
    setFault(null);
    load(file);
    const idle = (window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 200))) as (cb: () => void) => number;
    const handle = idle(() => {
      for (let d = 1; d <= PREFETCH; d++)
        for (const f of [files[index + d], files[index - d]]) if (f) viewerDetail(f, source).catch(() => undefined);
    });
    return () => (window.cancelIdleCallback ?? clearTimeout)(handle);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new file starts a load; the list changing around it (a star) does not
  }, [file?.id]);

  // A rename done in the dialog shows here once the dialog closes.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !dialogOpen && file) load(file, true);
    wasOpen.current = dialogOpen;
  }, [dialogOpen, file, load]);

  // Full screen collapses the strip; leaving it brings back the stored choice (seed 001 §4). E in full screen
  // opens it for the moment only.
  const [fullscreenOn, setFullscreenOn] = useState(false);
  const [barInFullscreen, setBarInFullscreen] = useState(false);
  useEffect(() => {
    const onChange = () => {
      setFullscreenOn(!!document.fullscreenElement);
      setBarInFullscreen(false);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const goByArrow = useMemo(() => debounce((d: -1 | 1) => useViewer.getState().go(d), ARROW_DEBOUNCE_MS), []);
  useEffect(() => goByArrow.cancel, [goByArrow]);

  const toggleBar = useCallback(() => {
    if (document.fullscreenElement) return setBarInFullscreen((b) => !b);
    setBar((b) => {
      localStorage.setItem(PREVIEW_BAR_KEY, b ? '0' : '1');
      saveSetting('preview_bar_visible', !b);
      return !b;
    });
  }, []);

  const detail = loaded?.file.id === file?.id ? loaded?.detail : undefined;
  const kind = file ? viewKindOf(file) : null;
  const err = file && loaded?.file.id === file.id ? loaded.error : undefined;
  const failure = (err !== undefined ? failureOfCall(err) : detail ? failureOfDetail(kind, detail) : null) ?? fault;

  /** A player or the photo failed: without a fault, a format it cannot show; with one, find out why (seed 001 §8). */
  const onError = useCallback(
    (f?: MediaFault) => {
      const at = file;
      if (!at) return;
      if (!f) return setFault({ cause: 'unsupported', code: null });
      void diagnose(at, source, f).then((r) => shownId.current === at.id && setFault(r));
    },
    [file, source],
  );
  // Players keep plain arrows for seeking (never leaving the file); photos and documents switch files with them.
  const player = kind === 'video' || kind === 'audio';

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (useDialog.getState().dialog || keyTakenByFocus(e)) return;
      const mod = e.ctrlKey || e.metaKey || e.altKey;
      if (e.key === 'Escape') {
        if (!document.fullscreenElement) shut();
      } else if (e.key === 'e' || e.key === 'E') {
        if (!mod) toggleBar();
      } else if (e.key === 'PageUp') go(-1);
      else if (e.key === 'PageDown') go(1);
      else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && (mod || !player || failure !== null))
        goByArrow(e.key === 'ArrowLeft' ? -1 : 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shut, go, goByArrow, toggleBar, player, failure]);

  if (!file) return null;

  const fullscreen = () => toggleFullscreen(document.querySelector<HTMLElement>('.viewer'), () => toast.error(t('viewer.noFullscreen')));
  const canRename = inDrive && scene !== 'home_recent';
  const starred = (detail ?? file).star === 1;
  const starLabel = starred ? t('actions.unstar') : t('actions.star');
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
    const outcome = swipeOutcome({
      dx: p.clientX - start.x,
      dy: p.clientY - start.y,
      width: window.innerWidth,
      height: window.innerHeight,
      mobile,
    });
    if (outcome === 'close') close();
    else if (outcome) go(outcome === 'previous' ? -1 : 1);
  };

  return (
    <div
      ref={root}
      className={`viewer${mobile ? ' mobile' : ''}${playerWindow ? ' player-window' : ''}`}
      role="dialog"
      aria-modal="true"
      tabIndex={-1}
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
              aria-label={starLabel}
              title={starLabel}
              aria-pressed={starred}
              onClick={() => void toggleStar()}
            >
              <Icon name="star" />
            </button>
          )}
          {inDrive && !mobile && (
            <button
              className="icon-btn"
              aria-label={t('actions.share')}
              title={t('actions.share')}
              onClick={() => useDialog.getState().open({ type: 'share', files: [detail ?? file] })}
            >
              <Icon name="shared" />
            </button>
          )}
          <button
            className="icon-btn"
            aria-label={t('actions.download')}
            title={t('actions.download')}
            onClick={download}
            disabled={!detail}
          >
            <Icon name="download" />
          </button>
          {/* A player has its own, in its bar (also in Haul's player window, which has no header). */}
          {!(player && !failure) && (
            <button className="icon-btn" aria-label={t('viewer.fullscreen')} title={t('viewer.fullscreen')} onClick={fullscreen}>
              <Icon name="fullscreen" />
            </button>
          )}
          {inDrive && detail && <ViewerMenu file={detail} canRename={canRename} />}
          <button className="icon-btn" aria-label={t('common.close')} title={t('common.close')} aria-keyshortcuts="Escape" onClick={close}>
            <Icon name="close" />
          </button>
        </div>
      </header>
      <main className="viewer-body">
        {index > 0 && (
          <button
            className="viewer-nav prev"
            aria-label={t('viewer.previous')}
            title={t('viewer.previous')}
            aria-keyshortcuts="PageUp"
            onClick={() => go(-1)}
          >
            <Icon name="chevron" size={28} />
          </button>
        )}
        <div className="viewer-content" key={file.id}>
          {failure ? (
            <ErrorPopup
              failure={failure}
              kind={kind}
              file={detail ?? file}
              mobile={mobile}
              hasNext={index < files.length - 1}
              onRetry={() => {
                setFault(null);
                setLoaded({ file });
                setTimeout(() => load(file, true), 500);
              }}
              onNext={() => go(1)}
              onExternal={() => detail && useDialog.getState().open({ type: 'external-player', file: detail })}
              onDownload={download}
            />
          ) : !detail ? (
            <div className="viewer-spinner" role="status" aria-label={t('common.loading')} />
          ) : kind === 'image' ? (
            <ImageView file={detail} onError={onError} />
          ) : kind === 'text' ? (
            <TextView file={detail} onError={onError} />
          ) : kind === 'pdf' ? (
            <PdfView file={detail} onError={onError} />
          ) : kind === 'video' ? (
            <VideoView
              file={detail}
              active={!dialogOpen}
              hold={handedOff}
              report={inDrive}
              onError={onError}
              onReload={() => load(file, true)}
              source={source}
            />
          ) : (
            <AudioView file={detail} active={!dialogOpen} hold={handedOff} report={inDrive} onError={onError} onGo={go} />
          )}
        </div>
        {index < files.length - 1 && (
          <button
            className="viewer-nav next"
            aria-label={t('viewer.next')}
            title={t('viewer.next')}
            aria-keyshortcuts="PageDown"
            onClick={() => go(1)}
          >
            <Icon name="chevron" size={28} />
          </button>
        )}
      </main>
      <PreviewBar files={files} index={index} open={fullscreenOn ? barInFullscreen : bar} onToggle={toggleBar} onShow={show} />
    </div>
  );
}
