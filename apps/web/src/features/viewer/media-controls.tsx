/** Controls shared by the video and audio players: play, progress, time, volume and mute, rate. */
import './media-controls.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { clampSlider, formatClock, RATES, seekByKey, VOLUME_STEP } from './playback-rules';

export function PlayButton({ paused, onToggle }: { paused: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const label = paused ? t('viewer.play') : t('viewer.pause');
  return (
    <button className="icon-btn" aria-label={label} title={label} onClick={onToggle}>
      <Icon name={paused ? 'play' : 'pause'} />
    </button>
  );
}

/**
 * The position slider. With `limit` (a limited preview), seeking past it is refused (seed 001 §5): the drag snaps
 * back, the 'require-be-saved' tip shows on the bar for a few seconds, and `onRefused` hears of it.
 */
export function ProgressSlider({
  time,
  duration,
  onSeek,
  limit,
  onRefused,
}: {
  time: number;
  duration: number;
  onSeek: (t: number) => void;
  limit?: number | null;
  onRefused?: () => void;
}) {
  const { t } = useTranslation();
  const [refused, setRefused] = useState(false);
  const tipTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(tipTimer.current), []);
  const percent = duration > 0 ? (time / duration) * 100 : 0;
  const seekTo = (target: number) => {
    if (limit != null && target > limit) {
      setRefused(true);
      clearTimeout(tipTimer.current);
      tipTimer.current = setTimeout(() => setRefused(false), 3000);
      return onRefused?.();
    }
    onSeek(target);
  };
  return (
    <>
      <span className="media-progress-wrap">
        <input
          className="media-slider media-progress"
          type="range"
          min={0}
          max={100}
          step={0.5}
          value={clampSlider(percent)}
          aria-label={t('viewer.progress')}
          aria-valuetext={`${formatClock(time)} / ${formatClock(duration)}`}
          aria-describedby={refused ? 'require-be-saved' : undefined}
          onChange={(e) => duration > 0 && seekTo((Number(e.target.value) / 100) * duration)}
          // Its arrows step in seconds, as the player's do (the native step is a share of the length).
          onKeyDown={(e) => {
            const to = e.key.startsWith('Arrow') && duration > 0 ? seekByKey(e.key, time, duration) : null;
            if (to === null) return;
            e.preventDefault();
            seekTo(to);
          }}
          style={
            {
              '--p': `${percent}%`,
              ...(limit != null && duration > 0 ? { '--limit': `${(limit / duration) * 100}%` } : {}),
            } as React.CSSProperties
          }
          data-limited={limit != null ? '' : undefined}
        />
        {refused && (
          <span className="media-tip" role="tooltip" id="require-be-saved">
            {t('viewer.requireBeSaved')}
          </span>
        )}
      </span>
      <span className="media-time">
        {formatClock(time)} / {formatClock(duration)}
      </span>
    </>
  );
}

export function VolumeControl({
  volume,
  onVolume,
  onMute,
  slider = true,
}: {
  volume: number;
  onVolume: (v: number) => void;
  onMute: () => void;
  /** False while the bar is too narrow for the slider (mute stays). */
  slider?: boolean;
}) {
  const { t } = useTranslation();
  const label = volume > 0 ? t('viewer.mute') : t('viewer.unmute');
  return (
    <span className="media-volume">
      <button className="icon-btn" aria-label={label} title={label} onClick={onMute}>
        <Icon name={volume > 0 ? 'volume' : 'mute'} />
      </button>
      {slider && <VolumeSlider volume={volume} onVolume={onVolume} />}
    </span>
  );
}

const VOLUME_KEYS: Record<string, number> = {
  ArrowUp: VOLUME_STEP,
  ArrowRight: VOLUME_STEP,
  ArrowDown: -VOLUME_STEP,
  ArrowLeft: -VOLUME_STEP,
};

export function VolumeSlider({ volume, onVolume }: { volume: number; onVolume: (v: number) => void }) {
  const { t } = useTranslation();
  return (
    <input
      className="media-slider"
      type="range"
      min={0}
      max={100}
      step={0.5}
      value={volume}
      aria-label={t('viewer.volume')}
      style={{ '--p': `${volume}%` } as React.CSSProperties}
      onChange={(e) => onVolume(clampSlider(Number(e.target.value)))}
      // Arrows move it as Up/Down do on the player; the native half-point steps are too fine to hear.
      onKeyDown={(e) => {
        const by = VOLUME_KEYS[e.key];
        if (!by) return;
        e.preventDefault();
        onVolume(clampSlider(volume + by));
      }}
    />
  );
}

export function RateSelect({ rate, onRate }: { rate: number; onRate: (r: number) => void }) {
  const { t } = useTranslation();
  return (
    <select className="media-select" aria-label={t('viewer.rate')} value={rate} onChange={(e) => onRate(Number(e.target.value))}>
      {RATES.map((r) => (
        <option key={r} value={r}>
          {r === 1 ? t('viewer.normalRate') : `${r}x`}
        </option>
      ))}
    </select>
  );
}
