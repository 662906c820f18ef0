/**
 * Watches a playing video for blank output: 6 black samples in a row, 500 ms apart, each after the time moved
 * (seed 001 §4). A browser that accepts a stream but cannot draw it shows black while the sound plays.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { BLANK, countBlank, isBlackSample } from './playback-rules';

export function useBlankDetect(video: RefObject<HTMLVideoElement | null>, watch: string | null, onBlank: () => void): void {
  const blank = useRef(onBlank);
  blank.current = onBlank;
  useEffect(() => {
    if (!watch) return;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = BLANK.canvas;
    const g = canvas.getContext('2d', { willReadFrequently: true });
    if (!g) return;
    let count = 0;
    let last = -1;
    const timer = setInterval(() => {
      const v = video.current;
      if (!v || v.paused || v.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return;
      const moved = v.currentTime !== last;
      last = v.currentTime;
      let black = false;
      if (moved) {
        g.drawImage(v, 0, 0, BLANK.canvas, BLANK.canvas);
        black = isBlackSample(g.getImageData(BLANK.x, BLANK.y, BLANK.size, BLANK.size).data);
      }
      count = countBlank(count, { moved, black });
      if (count >= BLANK.checks) {
        clearInterval(timer);
        blank.current();
      }
    }, BLANK.everyMs);
    return () => clearInterval(timer);
  }, [watch, video]);
}
