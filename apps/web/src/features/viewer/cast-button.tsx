/**
 * Casting a video with the browser's Remote Playback (Chromecast in Chrome, AirPlay in Safari). The button shows only
 * while the browser reports a device. A device fetches the link itself and cannot take a Media Source stream (what
 * hls.js plays), so availability is watched on the original file's signed link, and the player moves to that link
 * before asking the browser to cast.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';

/** Remote Playback is in this browser at all. */
export const remotePlaybackExists = () => typeof HTMLMediaElement !== 'undefined' && 'remote' in HTMLMediaElement.prototype;

/**
 * Whether a cast device can take `link`: watched on a detached element holding it (nothing is fetched: preload none),
 * since the player's own element may be playing a Media Source stream, which no device can take.
 */
export function useCastAvailable(link: string | undefined): boolean {
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    setAvailable(false);
    if (!link || !remotePlaybackExists()) return;
    const probe = document.createElement('video');
    probe.preload = 'none';
    probe.src = link;
    let id: number | null = null;
    let stopped = false;
    probe.remote
      .watchAvailability((yes) => !stopped && setAvailable(yes))
      .then((n) => {
        id = n;
        if (stopped) void probe.remote.cancelWatchAvailability(n).catch(() => undefined);
      })
      // NotSupportedError: the browser never casts (a setting, or no device discovery here): the button stays hidden.
      .catch(() => setAvailable(false));
    return () => {
      stopped = true;
      if (id !== null) void probe.remote.cancelWatchAvailability(id).catch(() => undefined);
      probe.removeAttribute('src');
    };
  }, [link]);
  return available;
}

export function CastButton({
  video,
  link,
  toCastable,
}: {
  video: RefObject<HTMLVideoElement | null>;
  /** The original file's signed link: what the device fetches. */
  link: string | undefined;
  /** Puts the player on `link` (resolves once it is loaded there); resolves at once when it plays it already. */
  toCastable: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const available = useCastAvailable(link);
  const [casting, setCasting] = useState(false);
  const busy = useRef(false);
  useEffect(() => {
    const remote = video.current?.remote;
    if (!remote) return;
    const sync = () => setCasting(remote.state !== 'disconnected');
    remote.addEventListener('connecting', sync);
    remote.addEventListener('connect', sync);
    remote.addEventListener('disconnect', sync);
    return () => {
      remote.removeEventListener('connecting', sync);
      remote.removeEventListener('connect', sync);
      remote.removeEventListener('disconnect', sync);
    };
  }, [video]);
  if (!available && !casting) return null;
  const cast = async () => {
    const el = video.current;
    if (!el || busy.current) return;
    busy.current = true;
    try {
      await toCastable();
      await el.remote.prompt();
    } catch (err) {
      // NotAllowedError: the person closed the device picker; nothing to say.
      if ((err as DOMException)?.name !== 'NotAllowedError') toast.error(t('cast.failed'));
    } finally {
      busy.current = false;
    }
  };
  const label = casting ? t('cast.casting') : t('cast.cast');
  return (
    <button className={`icon-btn${casting ? ' on' : ''}`} aria-label={label} title={label} aria-pressed={casting} onClick={() => void cast()}>
      <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
        <path d="M3 17a4 4 0 0 1 4 4M3 13a8 8 0 0 1 8 8M3 9a12 12 0 0 1 12 12M3 6V5a1 1 0 0 1 1-1h16a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-3" />
      </svg>
    </button>
  );
}
