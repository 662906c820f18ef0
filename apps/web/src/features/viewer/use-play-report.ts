/**
 * Reports play progress of a video or song: a TYPE_PLAY event (play_duration, play_seconds) at most every 5 s while
 * it plays, trailing, flushed on pause, end and close, skipped while time or duration is 0; and the position kept
 * locally for resuming.
 */
import { useCallback, useEffect, useRef } from 'react';
import { saveRecord, type RecordKind } from './play-records';
import { REPORT_EVERY_MS } from './playback-rules';
import { reportPlay } from './viewer-api';

export function usePlayReport(kind: RecordKind, fileId: string, enabled: boolean, remember: (duration: number) => boolean) {
  const last = useRef(0);
  const pending = useRef<{ t: number; d: number } | null>(null);

  const flush = useCallback(() => {
    const p = pending.current;
    pending.current = null;
    if (!p || !(p.t > 0) || !(p.d > 0)) return;
    last.current = Date.now();
    if (remember(p.d)) saveRecord(kind, { id: fileId, value: p.t, percentage: Math.min(100, (p.t / p.d) * 100) });
    if (enabled) reportPlay(fileId, p.d, p.t).catch(() => undefined);
  }, [enabled, fileId, kind, remember]);

  /** Called on every timeupdate. */
  const progress = useCallback(
    (t: number, d: number) => {
      pending.current = { t, d };
      const now = Date.now();
      // Trailing only: the first window starts with the first update, so nothing is sent at the very start.
      if (!last.current) last.current = now;
      else if (now - last.current >= REPORT_EVERY_MS) flush();
    },
    [flush],
  );

  useEffect(() => flush, [flush]);
  return { progress, flush };
}
