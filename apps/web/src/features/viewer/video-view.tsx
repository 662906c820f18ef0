/**
 * A video: the original when the browser plays it, else an HLS rendition through hls.js (loaded on first use); the
 * resolution can change at the current time; rates 0.5–3; volume 50 by default; the keyboard of seed 001 §2 (arrows
 * and J/L seek 5 and 10 s, never leaving the file); a loading overlay with buffered percent and speed; controls that
 * hide after 2.5 s; resume where it stopped.
 */
import type Hls from 'hls.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { DriveFile, DriveMedia } from '@haul/shared';
import { Icon } from '../../components/icon';
import { PlayButton, ProgressSlider, RateSelect, VolumeControl } from './media-controls';
import { CastButton } from './cast-button';
import { useSubtitleCues } from './subtitle-cues';
import { useBurnedMedia } from './subtitles-burn';
import { SubtitlesControl } from './subtitles-menu';
import { useSubtitles } from './subtitles-state';
import { PremiumQualityPrompt, PreviewEndPrompt } from './play-gate-prompts';
import { previewLimit, rememberWantedQuality, takeWantedQuality } from './play-gates';
import { getRecord } from './play-records';
import {
  chooseMedia,
  fallbackMedia,
  DEFAULT_VIDEO_VOLUME,
  formatClock,
  formatSpeed,
  pendingRenditions,
  resumeAt,
  seekByKey,
  VOLUME_STEP,
} from './playback-rules';
import { keyTakenByFocus, toggleFullscreen, useMediaElement } from './use-media-element';
import { useBlankDetect } from './use-blank-detect';
import { usePlayReport } from './use-play-report';
import type { MediaFault } from './viewer-errors';
import type { ViewerSource } from './viewer-store';

const HIDE_CONTROLS_MS = 2500;

export function VideoView({
  file,
  active,
  hold,
  report,
  onError,
  onReload,
  source,
}: {
  file: DriveFile;
  /** Where the file was opened: a share's visitor may be limited to a preview. */
  source: ViewerSource;
  /** Keys go to this player (the viewer shows it and no dialog is open). */
  active: boolean;
  /** Pause now: an external player took the file over. */
  hold: boolean;
  /** Send play events (signed-in drive only). */
  report: boolean;
  onError: (fault?: MediaFault) => void;
  /** Fetch the details again (to follow a transcode). */
  onReload: () => void;
}) {
  const { t } = useTranslation();
  const medias = file.medias ?? [];
  const offered = medias.filter((m) => m.is_visible);
  const [media, setMedia] = useState<DriveMedia | null>(() => chooseMedia(medias));
  const player = useMediaElement<HTMLVideoElement>('video', DEFAULT_VIDEO_VOLUME);
  const { ref: video, paused, setPaused, rate, setRate, volume, changeVolume, mute, toggle, seek } = player;
  const startAt = useRef(0);
  const fellBack = useRef(false);
  const [waiting, setWaiting] = useState(true);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [buffered, setBuffered] = useState(0);
  const [speed, setSpeed] = useState(0);
  const [controls, setControls] = useState(true);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const openedAt = useRef(Date.now());
  const hinted = useRef(false);
  const navigate = useNavigate();
  const location = useLocation();
  // A limited preview: the server's playlist ends near here, the player stops here (seed 001 §4–§6).
  const fullDuration = medias.find((m) => m.video?.duration)?.video?.duration ?? 0;
  const limit = previewLimit(file.params, fullDuration);
  const [limitReached, setLimitReached] = useState(false);
  const [asking, setAsking] = useState<DriveMedia | null>(null);
  const wanted = useRef<{ mediaId: string; asked: DriveFile } | null>(null);
  // Subtitles of one's own videos (a share's visitor has no drive to list them from).
  const subs = useSubtitles(file.id, source.kind === 'drive');
  const [subsOpen, setSubsOpen] = useState(false);
  const textTracks = subs.tracks.filter((s) => s.kind === 'text');
  useSubtitleCues(video, subs.choice, textTracks.map((s) => s.link.url).join(' '), media?.media_id ?? '');
  // An image track burned into the picture plays in place of the rendition, from where the video was.
  const { burned, shown, lastTime } = useBurnedMedia(media, subs.burn, startAt);
  const { progress, flush } = usePlayReport(
    'video',
    file.id,
    report,
    useCallback(() => true, []),
  );

  // Renditions still being made: follow their progress, until one can play and then as the others come (the
  // resolution menu grows while the video plays).
  const pending = pendingRenditions(medias);
  // After every render on purpose: each render starts the wait again; setMedia runs only while no rendition is chosen.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs after every render, as said above
  useEffect(() => {
    if (!media) {
      const next = chooseMedia(medias);
      if (next) return setMedia(next);
    }
    if (pending.length === 0) return;
    // Before anything plays, look often: the first segment is a second or two away.
    const timer = setTimeout(onReload, media ? 5000 : 500);
    return () => clearTimeout(timer);
  });

  // Back from paying for a quality: fetch the details again and play it if it is now ours; else the choice is dropped.
  useEffect(() => {
    const mediaId = takeWantedQuality(file.id);
    if (!mediaId) return;
    wanted.current = { mediaId, asked: file };
    onReload();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per file opened: fetching its details again must not take the wanted quality early
  }, [file.id]);
  useEffect(() => {
    const w = wanted.current;
    if (!w || file === w.asked) return;
    wanted.current = null;
    const m = medias.find((x) => x.media_id === w.mediaId);
    if (m && m.is_visible && !m.need_more_quota) switchTo(m);
    else toast.error(t('viewer.qualityNotPaid'));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- acts when the details come back (a new `file`); `medias` and `switchTo` are made from it
  }, [file]);

  // Attach the source; hls.js only for renditions in browsers without native HLS.
  useEffect(() => {
    const el = video.current;
    if (!el || !shown) return;
    let hls: Hls | null = null;
    let cancelled = false;
    setWaiting(true);
    const url = shown.link.url;
    // hls.js wherever Media Source exists: Chromium's own HLS player gives up on a playlist that is still being
    // written (a first play). The browser's player only where there is no Media Source (iPhone Safari).
    const mse = 'MediaSource' in window || 'ManagedMediaSource' in window;
    const native = shown.is_origin || (!mse && el.canPlayType('application/vnd.apple.mpegurl') !== '');
    // The browser's own cast offer (an overlay in some browsers) cannot take a Media Source stream: only the native one.
    el.disableRemotePlayback = !native;
    if (native) el.src = url;
    else {
      void import('hls.js').then(({ default: HlsJs }) => {
        if (cancelled) return;
        if (!HlsJs.isSupported()) return onError();
        hls = new HlsJs({ maxBufferLength: 30 });
        hls.on(HlsJs.Events.FRAG_LOADED, (_e, d) => {
          const s = d.frag.stats;
          const ms = s.loading.end - s.loading.start;
          if (ms > 0) setSpeed((s.loaded / ms) * 1000);
        });
        hls.on(HlsJs.Events.ERROR, (_e, d) => d.fatal && fail(d.type === HlsJs.ErrorTypes.NETWORK_ERROR ? 'network' : 'other'));
        hls.loadSource(url);
        hls.attachMedia(el);
      });
    }
    return () => {
      cancelled = true;
      hls?.destroy();
      el.removeAttribute('src');
      el.load();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by entry, not link: a fresh signature of the same entry is the same stream
  }, [shown?.media_id, file.id]);

  // Casting moves the player to the original (what a device can fetch), then asks the browser (cast-button.tsx).
  const origin = medias.find((m) => m.is_origin);
  const castWait = useRef<{ resolve: () => void; reject: (e: Error) => void } | null>(null);
  const toCastable = () =>
    new Promise<void>((resolve, reject) => {
      if (!origin || media?.media_id === origin.media_id) return resolve();
      castWait.current = { resolve, reject };
      startAt.current = video.current?.currentTime ?? 0;
      setMedia(origin);
    });

  /** Native-mode failure with renditions: fall back once to the middle one; otherwise the error popup. */
  const fallback = fallbackMedia(medias);
  const fail = (element: 'network' | 'other') => {
    castWait.current?.reject(new Error('The original cannot be loaded.'));
    castWait.current = null;
    if (media?.is_origin && fallback && !fellBack.current) {
      fellBack.current = true;
      startAt.current = video.current?.currentTime ?? 0;
      setMedia(fallback);
    } else onError({ link: media?.link.url, element });
  };
  // The original playing black (sound without a picture): the renditions were made for browsers; switch once.
  useBlankDetect(video, media?.is_origin && fallback && !fellBack.current ? media.media_id : null, () => fail('other'));

  const el = () => video.current;
  const fullscreen = () => toggleFullscreen(video.current?.closest('.video-view') ?? null, () => toast.error(t('viewer.noFullscreen')));
  const switchTo = (m: DriveMedia) => {
    if (m.need_more_quota) return setAsking(m);
    startAt.current = video.current?.currentTime ?? 0;
    setMedia(m);
  };
  /** Seeks, unless past a limited preview's end. */
  const seekWithin = (to: number) => {
    if (limit == null || to <= limit) seek(to);
  };
  const upgrade = (referFrom: 'hd_quality' | 'limit_view', quality?: DriveMedia) => {
    if (quality) rememberWantedQuality(file.id, quality.media_id);
    // Back where the person was once paid: the same screen of the drive, or the share page (outside the drive app).
    const here =
      source.kind === 'drive' ? `${location.pathname}${location.search}` : `${window.location.pathname}${window.location.search}`;
    const q = new URLSearchParams({ refer_from: referFrom, return: here });
    if (source.kind === 'drive') void navigate(`/payment?${q}`);
    else window.location.assign(`/drive/payment?${q}`);
  };
  const replay = () => {
    setLimitReached(false);
    seek(0);
    void video.current?.play().catch(() => undefined);
  };

  useEffect(() => {
    if (hold) video.current?.pause();
  }, [hold, video]);

  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      const v = el();
      if (!v || e.ctrlKey || e.metaKey || e.altKey || keyTakenByFocus(e)) return;
      const to = seekByKey(e.key, v.currentTime, v.duration);
      if (e.key === ' ') toggle();
      else if (e.key === 'Enter') fullscreen();
      else if (e.key === 'ArrowUp') changeVolume(volume + VOLUME_STEP);
      else if (e.key === 'ArrowDown') changeVolume(volume - VOLUME_STEP);
      else if (to !== null) {
        if (!hinted.current && Date.now() - openedAt.current < 5000 && e.key.startsWith('Arrow')) {
          hinted.current = true;
          toast(t(/Mac/.test(navigator.platform) ? 'viewer.switchHintMac' : 'viewer.switchHint'));
        }
        seekWithin(to);
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const subsOpenRef = useRef(false);
  subsOpenRef.current = subsOpen;
  const poke = () => {
    setControls(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => !video.current?.paused && !subsOpenRef.current && setControls(false), HIDE_CONTROLS_MS);
  };

  if (!media) {
    const p = pending[0];
    return (
      <div className="video-view waiting-transcode" role="status">
        <div className="viewer-spinner" />
        <p>{p ? t('viewer.preparing', { percent: Math.round(p.progress) }) : t('viewer.cannotPlay')}</p>
      </div>
    );
  }

  return (
    <div className={`video-view${controls ? '' : ' idle'}`} onMouseMove={poke} onTouchStart={poke}>
      <video
        ref={video}
        playsInline
        onClick={toggle}
        aria-label={file.name}
        data-media={shown!.media_id}
        data-burned={burned ? burned.track_id : undefined}
        data-subtitle-size={subs.choice.size}
        onLoadedMetadata={(e) => {
          const v = e.currentTarget;
          setDuration(limit != null && fullDuration > 0 ? fullDuration : v.duration);
          // A limited preview starts at 0 (seed 001 §4).
          const at = startAt.current || (limit != null ? 0 : resumeAt(getRecord('video', file.id), v.duration));
          if (at) {
            v.currentTime = at;
            if (!startAt.current) toast(t('viewer.resumed', { time: formatClock(at) }));
          }
          startAt.current = 0;
          player.start(v);
          castWait.current?.resolve();
          castWait.current = null;
        }}
        onPlay={() => {
          setPaused(false);
          poke();
        }}
        onPause={() => {
          setPaused(true);
          setControls(true);
          flush();
        }}
        onEnded={() => {
          flush();
          if (limit != null) setLimitReached(true);
        }}
        onWaiting={() => setWaiting(true)}
        onCanPlay={() => setWaiting(false)}
        onPlaying={() => setWaiting(false)}
        onTimeUpdate={(e) => {
          const v = e.currentTarget;
          if (limit != null && v.currentTime >= limit) {
            // The anonymous time is used up: stop at the point and offer the ways to see the rest.
            v.pause();
            setLimitReached(true);
          }
          setTime(Math.min(v.currentTime, limit ?? Infinity));
          if (v.currentTime > 0) lastTime.current = v.currentTime;
          progress(v.currentTime, v.duration);
        }}
        onProgress={(e) => {
          const v = e.currentTarget;
          if (v.duration > 0 && v.buffered.length) setBuffered((v.buffered.end(v.buffered.length - 1) / v.duration) * 100);
        }}
        onError={(e) => fail(e.currentTarget.error?.code === MediaError.MEDIA_ERR_NETWORK ? 'network' : 'other')}
      >
        {textTracks.map((s) => (
          <track key={s.id} kind="subtitles" src={s.link.url} label={s.name || s.title || s.language || s.id} srcLang={s.language || undefined} data-id={s.id} />
        ))}
      </video>
      {waiting && (
        <div className="video-loading" role="status">
          <div className="viewer-spinner" />
          <span>
            {t('viewer.loading')} {Math.round(buffered)}%{speed > 0 ? ` · ${formatSpeed(speed)}` : ''}
          </span>
        </div>
      )}
      <div className="media-bar" role="toolbar" aria-label={t('viewer.controls')}>
        <ProgressSlider time={time} duration={duration} onSeek={seek} limit={limit} onRefused={() => video.current?.pause()} />
        <div className="media-row">
          <PlayButton paused={paused} onToggle={toggle} />
          <VolumeControl volume={volume} onVolume={changeVolume} onMute={mute} />
          <span className="media-spacer" />
          {burned && (
            <span className="subtitles-burned" role="status">
              {t('subtitles.burnedBadge')}
            </span>
          )}
          <RateSelect rate={rate} onRate={setRate} />
          {offered.length > 1 && (
            <select
              className="media-select"
              aria-label={t('viewer.resolution')}
              value={media.media_id}
              onChange={(e) => switchTo(offered.find((m) => m.media_id === e.target.value)!)}
            >
              {offered.map((m) => (
                <option key={m.media_id} value={m.media_id}>
                  {m.is_origin
                    ? t('viewer.original')
                    : m.need_more_quota
                      ? t('viewer.premiumOption', { quality: m.resolution_name })
                      : m.resolution_name}
                </option>
              ))}
            </select>
          )}
          {source.kind === 'drive' && (
            <SubtitlesControl
              subs={subs}
              open={subsOpen}
              onOpen={(open) => {
                setSubsOpen(open);
                setControls(true);
              }}
            />
          )}
          <CastButton video={video} link={origin?.link.url} toCastable={toCastable} />
          <button className="icon-btn" aria-label={t('viewer.fullscreen')} title={t('viewer.fullscreen')} onClick={fullscreen}>
            <Icon name="fullscreen" />
          </button>
        </div>
      </div>
      {limitReached && source.kind === 'share' && (
        <PreviewEndPrompt shareId={source.access.shareId} onReplay={replay} onUpgrade={() => upgrade('limit_view')} />
      )}
      {asking && (
        <PremiumQualityPrompt
          quality={asking.resolution_name}
          onCancel={() => setAsking(null)}
          onUpgrade={() => upgrade('hd_quality', asking)}
        />
      )}
    </div>
  );
}
