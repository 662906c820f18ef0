/**
 * The chosen subtitle track on the <video>: its <track> shown and the others off, every cue moved by the delay and
 * lifted by the position. Cue text stays with the browser's WebVTT renderer: nothing here writes markup.
 */
import { useEffect, type RefObject } from 'react';
import type { SubtitleChoice } from './subtitle-records';

/** Each cue's own times, before any delay. */
const originals = new WeakMap<TextTrackCue, [number, number]>();

/** Moves a track's cues to their own times plus `delay`, and `raise` lines above the bottom. */
export function placeCues(track: TextTrack, delay: number, raise: number): void {
  for (const cue of Array.from(track.cues ?? [])) {
    let own = originals.get(cue);
    if (!own) {
      own = [cue.startTime, cue.endTime];
      originals.set(cue, own);
    }
    cue.startTime = Math.max(0, own[0] + delay);
    cue.endTime = Math.max(0, own[1] + delay);
    if (typeof VTTCue !== 'undefined' && cue instanceof VTTCue) {
      cue.snapToLines = true;
      cue.line = raise > 0 ? -1 - raise : 'auto';
    }
  }
}

/**
 * Keeps the <video>'s <track> children in step with the choice: again when a track finishes loading, when the list
 * changes (`tracksKey`) and when the source changes (`mediaKey`, a new quality).
 */
export function useSubtitleCues(video: RefObject<HTMLVideoElement | null>, choice: SubtitleChoice, tracksKey: string, mediaKey: string): void {
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    const nodes = Array.from(el.querySelectorAll('track'));
    const apply = () => {
      for (const node of nodes) {
        const on = node.dataset.id === choice.track;
        const mode: TextTrackMode = on ? 'showing' : 'disabled';
        if (node.track.mode !== mode) node.track.mode = mode;
        if (on) placeCues(node.track, choice.delay, choice.raise);
      }
    };
    apply();
    for (const node of nodes) node.addEventListener('load', apply);
    el.addEventListener('loadedmetadata', apply);
    return () => {
      for (const node of nodes) node.removeEventListener('load', apply);
      el.removeEventListener('loadedmetadata', apply);
    };
  }, [video, choice.track, choice.delay, choice.raise, tracksKey, mediaKey]);
}
