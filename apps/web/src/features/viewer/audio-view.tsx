/**
 * A song: its cover, a title that scrolls when long, progress, volume (remembered, with the volume before muting),
 * rate, and the play mode (list, single, pause after end) that decides what follows. Long files (10 minutes or more)
 * resume where they stopped.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DriveFile } from '@haul/shared';
import { Icon } from '../../components/icon';
import { PlayButton, ProgressSlider, RateSelect, VolumeControl, VolumeSlider } from './media-controls';
import { getPlayMode, getRecord, setPlayMode } from './play-records';
import {
  afterSongEnds,
  AUDIO_RESUME_MIN_S,
  collapsedControls,
  PLAY_MODES,
  resumeAt,
  seekByKey,
  VOLUME_STEP,
  type Collapsible,
  type PlayMode,
} from './playback-rules';
import { keyTakenByFocus, toggleFullscreen, useMediaElement } from './use-media-element';
import { toast } from 'sonner';
import { usePlayReport } from './use-play-report';
import type { MediaFault } from './viewer-errors';

const DEFAULT_AUDIO_VOLUME = 80;

export function AudioView({
  file,
  active,
  hold,
  report,
  onError,
  onGo,
}: {
  file: DriveFile;
  active: boolean;
  /** Pause now: an external player took the file over. */
  hold: boolean;
  report: boolean;
  onError: (fault?: MediaFault) => void;
  /** `force`: wrap around the list (list circulate). */
  onGo: (delta: -1 | 1, force?: boolean) => void;
}) {
  const { t } = useTranslation();
  const player = useMediaElement<HTMLAudioElement>('audio', DEFAULT_AUDIO_VOLUME);
  const { ref: audio, paused, setPaused, rate, setRate, volume, changeVolume, mute, toggle, seek } = player;
  const origin = file.medias?.find((m) => m.is_origin && m.is_visible);
  const src = origin?.link.url || file.web_content_link;
  const tags = origin?.audio;
  const [waiting, setWaiting] = useState(true);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [mode, setMode] = useState<PlayMode>(getPlayMode);
  const [cover, setCover] = useState(!!file.thumbnail_link);
  const { progress, flush } = usePlayReport(
    'audio',
    file.id,
    report,
    useCallback((d: number) => d >= AUDIO_RESUME_MIN_S, []),
  );

  // The bar's controls give way as it narrows (seed 001 §2): measured, then the rule decides.
  const bar = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState<Collapsible[]>([]);
  const [settings, setSettings] = useState(false);
  const [deg, setDeg] = useState(0);
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      const next = collapsedControls(el.clientWidth);
      setHidden((cur) => (cur.join() === next.join() ? cur : next));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  // The format, short (the probe's codec names run long: "MPEG 1 Layer 3").
  const quality = (file.name.includes('.') ? file.name.split('.').pop()! : tags?.codec || '').toUpperCase();

  useEffect(() => {
    if (!src) onError({});
  }, [src, onError]);
  const nextMode = () => {
    const m = PLAY_MODES[(PLAY_MODES.indexOf(mode) + 1) % PLAY_MODES.length]!;
    setMode(m);
    setPlayMode(m);
  };

  useEffect(() => {
    if (hold) audio.current?.pause();
  }, [hold, audio]);

  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      const a = audio.current;
      if (!a || e.ctrlKey || e.metaKey || e.altKey || keyTakenByFocus(e)) return;
      const to = seekByKey(e.key, a.currentTime, a.duration);
      if (e.key === ' ') toggle();
      else if (e.key === 'ArrowUp') changeVolume(volume + VOLUME_STEP);
      else if (e.key === 'ArrowDown') changeVolume(volume - VOLUME_STEP);
      // Seeking keys stay in the song, ended or not: the next one is PageDown, Ctrl/⌥ + →, or the play mode's.
      else if (to !== null) seek(to);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const title = tags?.title || file.name;
  return (
    <div className="audio-view">
      <div className={`audio-cover${paused ? '' : ' playing'}`} style={deg ? { transform: `rotate(${deg}deg)` } : undefined}>
        {cover ? <img src={file.thumbnail_link} alt="" onError={() => setCover(false)} /> : <Icon name="audio" size={96} />}
      </div>
      <div className="audio-title" title={title}>
        <span>{title}</span>
      </div>
      {tags?.artist && <p className="muted audio-artist">{[tags.artist, tags.album].filter(Boolean).join(' · ')}</p>}
      <audio
        ref={audio}
        src={src}
        aria-label={file.name}
        onLoadedMetadata={(e) => {
          const a = e.currentTarget;
          setDuration(a.duration);
          const at = a.duration >= AUDIO_RESUME_MIN_S ? resumeAt(getRecord('audio', file.id), a.duration) : 0;
          if (at) a.currentTime = at;
          player.start(a);
        }}
        onPlay={() => setPaused(false)}
        onPause={() => {
          setPaused(true);
          flush();
        }}
        onWaiting={() => setWaiting(true)}
        onCanPlay={() => setWaiting(false)}
        onTimeUpdate={(e) => {
          setTime(e.currentTarget.currentTime);
          progress(e.currentTarget.currentTime, e.currentTarget.duration);
        }}
        onEnded={(e) => {
          flush();
          const next = afterSongEnds(mode);
          if (next === 'next') onGo(1, true);
          else if (next === 'repeat') {
            e.currentTarget.currentTime = 0;
            void e.currentTarget.play();
          }
        }}
        onError={(e) => onError({ link: src, element: e.currentTarget.error?.code === MediaError.MEDIA_ERR_NETWORK ? 'network' : 'other' })}
      />
      {waiting && <div className="viewer-spinner small" role="status" aria-label={t('viewer.loading')} />}
      <div className="media-bar audio-bar" role="toolbar" aria-label={t('viewer.controls')} ref={bar} data-hidden={hidden.join(' ')}>
        <ProgressSlider time={time} duration={duration} onSeek={seek} />
        <div className="media-row">
          <PlayButton paused={paused} onToggle={toggle} />
          <VolumeControl volume={volume} onVolume={changeVolume} onMute={mute} slider={!hidden.includes('volume')} />
          <span className="media-spacer" />
          {!hidden.includes('quality') && (
            <span className="audio-quality" aria-label={t('viewer.quality')}>
              {quality}
            </span>
          )}
          <RateSelect rate={rate} onRate={setRate} />
          <button className="btn small" onClick={nextMode} aria-label={t('viewer.playMode')} data-mode={mode}>
            {t(`viewer.mode.${mode}`)}
          </button>
          {!hidden.includes('settings') && (
            <button
              className="icon-btn"
              aria-label={t('viewer.settings')}
              title={t('viewer.settings')}
              aria-expanded={settings}
              onClick={() => setSettings(!settings)}
            >
              <Icon name="settings" />
            </button>
          )}
          <button className="icon-btn" aria-label={t('viewer.rotate')} title={t('viewer.rotate')} onClick={() => setDeg(deg - 90)}>
            <Icon name="rotate" />
          </button>
          <button
            className="icon-btn"
            aria-label={t('viewer.fullscreen')}
            title={t('viewer.fullscreen')}
            onClick={() => toggleFullscreen(bar.current?.closest('.audio-view') ?? null, () => toast.error(t('viewer.noFullscreen')))}
          >
            <Icon name="fullscreen" />
          </button>
        </div>
        {settings && !hidden.includes('settings') && (
          // What the bar had no room for, and the speed.
          <div className="audio-settings" role="group" aria-label={t('viewer.settings')}>
            {hidden.includes('volume') && <VolumeSlider volume={volume} onVolume={changeVolume} />}
            {hidden.includes('quality') && <span className="audio-quality">{quality}</span>}
            <RateSelect rate={rate} onRate={setRate} />
          </div>
        )}
      </div>
    </div>
  );
}
