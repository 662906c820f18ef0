/** Scripts the media benchmark installs in the page, as plain text (see STOPWATCH). */

export type Marks = { t0: number; frame: number; playing: number; failed: number; media: string; src: string };

/**
 * The stopwatch installed in the page: the double click starts it; the first frame of `.viewer video` stops it (its
 * clock first moving is noted too), and so does the viewer's error panel. Plain text: the TypeScript runner would
 * wrap named functions in a helper the page does not have.
 */
export const STOPWATCH = `(() => {
  const m = { t0: 0, frame: 0, playing: 0, failed: 0, media: '', src: '' };
  window.__ttff = m;
  const now = () => performance.timeOrigin + performance.now();
  document.addEventListener('dblclick', () => (m.t0 = now()), { capture: true, once: true });
  const hooked = new WeakSet();
  const poll = () => {
    const v = document.querySelector('.viewer video');
    if (v && !hooked.has(v)) {
      hooked.add(v);
      v.requestVideoFrameCallback((at) => {
        if (m.frame) return;
        m.frame = performance.timeOrigin + at;
        m.media = v.dataset.media || '';
        m.src = v.currentSrc.slice(0, 5);
      });
    }
    if (v && v.currentTime > 0 && !m.playing) m.playing = now();
    if (document.querySelector('.viewer-error')) m.failed = now();
    else if (!m.frame || !m.playing) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
})()`;

/** A browser without native HLS (Firefox, Chromium before its built-in HLS player): the web app takes hls.js. */
export const NO_NATIVE_HLS = `(() => {
  const canPlay = HTMLMediaElement.prototype.canPlayType;
  HTMLMediaElement.prototype.canPlayType = function (type) {
    return /mpegurl/i.test(type) ? '' : canPlay.call(this, type);
  };
})()`;
