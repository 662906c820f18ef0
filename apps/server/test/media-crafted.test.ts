/** Media a stranger crafts to tie up the transcoder: a tiny video claiming a gap of hours between two frames. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { MAX_SOURCE_SECONDS, timeLimitMs, transcodeRendition } from '../src/media/hls-transcode.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-crafted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('transcoding crafted media', () => {
  it('does not fill a claimed gap of hours with frames, and never runs unbounded', async () => {
    const source = join(dir, 'gap.mkv');
    try {
      // Two frames: the second one 40,000 s (11 hours) after the first.
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-frames:v', '2', '-vf', "setpts='if(eq(N,1),40000/TB,PTS)'", '-fps_mode', 'passthrough', '-c:v', 'libx264', source]);
    } catch (err) {
      throw new Error(`ffmpeg is needed for this test: install it with "apt-get install -y ffmpeg" (${(err as Error).message})`);
    }
    const scratch = join(dir, 'out');
    mkdirSync(scratch);
    const started = Date.now();
    const playlist = await transcodeRendition(
      { ...loadConfig({}), ffmpegPath: null, ffprobePath: null },
      { source, scratch, width: 320, height: 240, bandwidth: 800_000, hasAudio: false, duration: 40_001, signal: AbortSignal.timeout(60_000), onProgress: () => {} },
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(readdirSync(scratch).filter((f) => f.endsWith('.m4s')).length).toBeLessThanOrEqual(3);
    expect(playlist.segments.length).toBeLessThanOrEqual(3);
    // Whatever a file claims, a run has a ceiling.
    expect(timeLimitMs(1e12)).toBe((120 + MAX_SOURCE_SECONDS * 8) * 1000);
  });
});
