/** Test media made with the system's ffmpeg, for the browser tests that play or show it. */
import { execFileSync } from 'node:child_process';

const FFMPEG = '/usr/bin/ffmpeg';

/** Runs ffmpeg quietly, overwriting its output. */
export const ff = (...args: string[]) => execFileSync(FFMPEG, ['-v', 'error', '-y', ...args]);

/** Fails with the install step when ffmpeg is missing. */
export function requireFfmpeg(): void {
  try {
    execFileSync(FFMPEG, ['-version']);
  } catch {
    throw new Error('ffmpeg is needed to make the test media: install it with "apt-get install -y ffmpeg".');
  }
}
