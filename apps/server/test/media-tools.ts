/** Making and reading test media with the system's ffmpeg. */
import { execFileSync } from 'node:child_process';

export function need(tool: string): void {
  try {
    execFileSync(tool, ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error(`${tool} is needed to make the test media: apt-get install ffmpeg`);
  }
}

export const ff = (dir: string, args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { cwd: dir });

/** Streams and duration of a local media file, as the system's ffprobe reads it. */
export function ffprobe(path: string): { streams: { codec_name: string; width?: number; height?: number }[]; format: { duration: string } } {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height:format=duration', '-of', 'json', path]).toString());
}
