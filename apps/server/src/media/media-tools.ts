/**
 * Finding and running ffmpeg and ffprobe: the configured path, else the system's, else the build shipped through
 * npm. Every run is niced, bounded in wall-clock time and killed outright when it overruns or is cancelled.
 */
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Config } from '../config.js';
import { isDiskFull } from '../http/errors.js';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

/** A tool that is missing or a run that failed; `message` is fit to show a user (no paths, no command lines). */
export class MediaToolError extends Error {
  constructor(message: string, readonly timedOut = false) {
    super(message);
  }
}

const TRANSIENT = /not installed|not found at|Could not run|took too long|Cancelled|right now/;

/** True for failures that say nothing about the content (a missing tool, a time-out, a cancel): worth trying again. */
export function isTransient(err: unknown): boolean {
  // A full disk says nothing about the content either: try again once space is freed.
  if (isDiskFull(err)) return true;
  const message = typeof err === 'string' ? err : err instanceof MediaToolError ? err.message : '';
  return (err instanceof MediaToolError && err.timedOut) || TRANSIENT.test(message) || /No space left on device/i.test(message);
}

/**
 * Input options that keep ffmpeg to the one local file it is given: only the file protocol, and only demuxers of
 * self-contained media. Playlists (hls), concat lists, image sequences and the like would open other paths or URLs
 * named inside the file, so they are not on the list.
 */
export const INPUT_GUARD = [
  '-protocol_whitelist', 'file',
  '-format_whitelist',
  'mov,matroska,webm,avi,flv,live_flv,mpegts,mpeg,mpegvideo,asf,rm,ogg,mp3,flac,wav,aac,aiff,ape,au,wv,m4v,h264,hevc,mxf,nut,ivf,amr,w64,caf,dv',
];

const require = createRequire(import.meta.url);
const resolved = new Map<string, string>();

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of ['/usr/bin', '/usr/local/bin', ...(process.env.PATH ?? '').split(delimiter)]) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** The binary an npm package ships; its install script marks it executable, which some npm setups skip. */
function fromNpm(pkg: string): string | null {
  try {
    const path = (require(pkg) as { path: string }).path;
    if (!existsSync(path)) return null;
    if (!isExecutable(path)) chmodSync(path, 0o755);
    return path;
  } catch {
    return null;
  }
}

function locate(name: 'ffmpeg' | 'ffprobe', configured: string | null): string {
  const key = `${name}:${configured ?? ''}`;
  const known = resolved.get(key);
  if (known) return known;
  let path: string | null;
  if (configured) {
    if (!isExecutable(configured)) throw new MediaToolError(`${name} was not found at HAUL_${name.toUpperCase()}_PATH.`);
    path = configured;
  } else {
    path = onPath(name) ?? fromNpm(name === 'ffmpeg' ? '@ffmpeg-installer/ffmpeg' : '@ffprobe-installer/ffprobe');
  }
  if (!path) throw new MediaToolError(`${name} is not installed on the server (apt-get install ffmpeg).`);
  resolved.set(key, path);
  return path;
}

/** Paths of ffmpeg and ffprobe for this configuration; throws MediaToolError when one cannot be found. */
export function mediaTools(config: Pick<Config, 'ffmpegPath' | 'ffprobePath'>): MediaTools {
  return { ffmpeg: locate('ffmpeg', config.ffmpegPath), ffprobe: locate('ffprobe', config.ffprobePath) };
}

export interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  cwd?: string;
  /** Called with each line of standard output (progress reports); when absent, output is collected instead. */
  onLine?: (line: string) => void;
  /** Most bytes of standard output kept when collecting (a decoded frame, a probe's JSON). */
  maxOutput?: number;
}

/** Runs a tool with a low priority; resolves with its standard output, rejects with the last lines of its errors. */
export function runTool(bin: string, args: string[], opts: RunOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new MediaToolError('Cancelled.'));
    const child = spawn(bin, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    // Transcoding must never starve the requests this process serves.
    try {
      if (child.pid) setPriority(child.pid, 10);
    } catch {
      /* lowering the priority is best effort */
    }
    const out: Buffer[] = [];
    let outBytes = 0;
    let overflow = false;
    let partial = '';
    let errTail = '';
    let timedOut = false;
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs);
    opts.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (opts.onLine) {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) opts.onLine(l.trim());
        return;
      }
      outBytes += chunk.length;
      if (outBytes > (opts.maxOutput ?? 64 * 1024 * 1024)) {
        overflow = true;
        kill();
      } else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errTail = (errTail + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new MediaToolError(`Could not run ${bin.split('/').pop()}: ${err.message}`));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', kill);
      if (timedOut) return reject(new MediaToolError('The media took too long to process.', true));
      if (opts.signal?.aborted) return reject(new MediaToolError('Cancelled.'));
      if (overflow) return reject(new MediaToolError('The media produced more output than expected.'));
      if (code !== 0) return reject(new MediaToolError(describeFailure(errTail, code, sig)));
      resolve(Buffer.concat(out));
    });
  });
}

/** The last meaningful line ffmpeg printed, without the local paths it may contain. */
function describeFailure(stderr: string, code: number | null, sig: NodeJS.Signals | null): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.replace(/\[[^\]]*@ 0x[0-9a-f]+\]\s*/g, '').replace(/(file:)?\/[^\s:'"]+/g, '(file)').trim())
    .filter((l) => l && !/^Conversion failed|^Error opening output|^Exiting/.test(l));
  const last = lines.at(-1);
  if (last) return `The media could not be read: ${last}`.slice(0, 300);
  return sig ? `The media tool stopped (${sig}).` : `The media tool failed (exit code ${code}).`;
}
