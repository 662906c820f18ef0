/** What the video and audio players share: the element, play and pause, seeking, rate, and the remembered volume. */
import { useEffect, useRef, useState } from 'react';
import { getMutedVolume, getVolume, setMutedVolume, setVolume, type RecordKind } from './play-records';

export function useMediaElement<T extends HTMLMediaElement>(kind: RecordKind, defaultVolume: number) {
  const ref = useRef<T>(null);
  const [paused, setPaused] = useState(true);
  const [rate, setRate] = useState(1);
  const [volume, setVol] = useState(() => getVolume(kind, defaultVolume));

  useEffect(() => {
    if (ref.current) ref.current.volume = volume / 100;
  }, [volume]);
  useEffect(() => {
    if (ref.current) ref.current.playbackRate = rate;
  }, [rate]);

  const changeVolume = (v: number) => {
    const clamped = Math.max(0, Math.min(100, v));
    setVol(clamped);
    setVolume(kind, clamped);
  };
  return {
    ref,
    paused,
    setPaused,
    rate,
    setRate,
    volume,
    changeVolume,
    /** Mutes, remembering the volume; unmuting brings it back. */
    mute: () => {
      if (volume > 0) {
        setMutedVolume(kind, volume);
        changeVolume(0);
      } else changeVolume(getMutedVolume(kind) || defaultVolume);
    },
    toggle: () => {
      const el = ref.current;
      if (!el) return;
      if (el.paused) void el.play().catch(() => setPaused(true));
      else el.pause();
    },
    /** Seeks, clamped to 0 … duration. */
    seek: (to: number) => {
      const el = ref.current;
      if (el) el.currentTime = Math.max(0, Math.min(to, el.duration || to));
    },
    /** Applies volume and rate to a freshly loaded source, then starts it (a refusal leaves it paused). */
    start: (el: T) => {
      el.volume = volume / 100;
      el.playbackRate = rate;
      void el.play().catch(() => setPaused(true));
    },
  };
}

/** Enters or leaves full screen on `el`; `unsupported` is told when the browser cannot. */
export function toggleFullscreen(el: HTMLElement | null, unsupported: () => void): void {
  if (document.fullscreenElement) void document.exitFullscreen();
  else if (el?.requestFullscreen) el.requestFullscreen().catch(unsupported);
  else unsupported();
}

/** Keys a focused slider moves itself by (the browser's own, which the viewer must not take). */
const SLIDER_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);

/** Keys that press what has focus. */
const PRESS_KEYS = new Set([' ', 'Enter']);
/** What Space or Enter presses: a button of the player or the page, a link, a tick box, a tab. */
const PRESSABLE =
  'button, a[href], summary, input[type="checkbox"], input[type="radio"], [role="button"], [role="link"], [role="option"], [role="tab"], [role="checkbox"], [role="radio"], [role="switch"]';

/**
 * True when a key belongs to what has focus (a menu, a text field, a select, a slider, a button that Space or Enter
 * presses), not to the viewer's shortcuts.
 */
export function keyTakenByFocus(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  if (!el?.closest) return false;
  if (SLIDER_KEYS.has(e.key) && el.closest('input[type="range"], [role="slider"]')) return true;
  if (PRESS_KEYS.has(e.key) && el.closest(PRESSABLE)) return true;
  return !!el.closest('[role="menu"], [role="dialog"]:not(.viewer), select, textarea, input:not([type="range"]):not([type="checkbox"])');
}
