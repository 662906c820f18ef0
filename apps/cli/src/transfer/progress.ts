/**
 * Progress of a transfer: a bar with bytes, speed and time left on a terminal (stderr, so stdout stays clean for
 * pipes); on anything else, or with --json, nothing but the result lines.
 */
import cliProgress from 'cli-progress';
import { formatSize } from '@haul/shared/plain';

export interface Progress {
  /** A new item starts: its name and size in bytes. */
  start(name: string, total: number): void;
  /** Bytes done of the current item. */
  update(done: number): void;
  stop(): void;
  /** Clears the bar's line, so a note written next starts on a clean line (the bar comes back on its next update). */
  clear(): void;
}

const quiet: Progress = { start() {}, update() {}, stop() {}, clear() {} };

function makeBar(): cliProgress.SingleBar {
  return new cliProgress.SingleBar(
    {
      format: ' {bar} {percentage}% | {doneText} of {totalText} | {speedText}/s | {eta_formatted} | {name}',
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: true,
      stream: process.stderr,
      etaBuffer: 20,
      fps: 8,
    },
    cliProgress.Presets.shades_classic,
  );
}

const clearLine = () => process.stderr.write('\r\x1b[K');

export function makeProgress(enabled: boolean): Progress {
  if (!enabled || !process.stderr.isTTY) return quiet;
  const bar = makeBar();
  let started = false;
  let lastAt = Date.now();
  let lastDone = 0;
  let speed = 0;
  return {
    start(name, total) {
      const payload = { name, doneText: formatSize(0), totalText: formatSize(total), speedText: formatSize(0) };
      if (started) {
        bar.setTotal(total);
        bar.update(0, payload);
      } else {
        bar.start(total, 0, payload);
        started = true;
      }
      lastAt = Date.now();
      lastDone = 0;
    },
    update(done) {
      const now = Date.now();
      if (now - lastAt >= 500) {
        speed = ((done - lastDone) * 1000) / (now - lastAt);
        lastAt = now;
        lastDone = done;
      }
      bar.update(done, { doneText: formatSize(done), speedText: formatSize(Math.max(0, Math.round(speed))) });
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
    clear: () => started && clearLine(),
  };
}

/** Progress of several transfers at once, as one bar: each adds the bytes it moved, and says when a file is done. */
export interface RunProgress {
  add(bytes: number): void;
  fileDone(): void;
  clear(): void;
  stop(): void;
}

export function makeRunProgress(enabled: boolean, files: number, totalBytes: number): RunProgress {
  if (!enabled || !process.stderr.isTTY) return { add() {}, fileDone() {}, clear() {}, stop() {} };
  const bar = makeBar();
  let done = 0;
  let filesDone = 0;
  let lastAt = Date.now();
  let lastDone = 0;
  let speed = 0;
  const payload = () => ({ name: `${filesDone} of ${files} files`, doneText: formatSize(done), totalText: formatSize(totalBytes), speedText: formatSize(Math.max(0, Math.round(speed))) });
  const draw = () => {
    const now = Date.now();
    if (now - lastAt >= 500) {
      speed = ((done - lastDone) * 1000) / (now - lastAt);
      lastAt = now;
      lastDone = done;
    }
    bar.update(done, payload());
  };
  bar.start(totalBytes, 0, payload());
  return {
    add(bytes) {
      done += bytes;
      draw();
    },
    fileDone() {
      filesDone++;
      draw();
    },
    clear: clearLine,
    stop: () => bar.stop(),
  };
}
