/** Test media made with the system's ffmpeg, for the browser tests that play or show it. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

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

/** Writes photo.jpg (320×240), song.mp3 (a tone of `songSeconds`) and clip.mp4 (8 s of H.264 + AAC) into `dir`. */
export function makePlayerMedia(dir: string, songSeconds: number): void {
  requireFfmpeg();
  ff('-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=1', '-frames:v', '1', join(dir, 'photo.jpg'));
  ff('-f', 'lavfi', '-i', 'sine=frequency=523', '-t', String(songSeconds), '-c:a', 'libmp3lame', join(dir, 'song.mp3'));
  ff(
    ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '8'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', join(dir, 'clip.mp4')],
  );
}
