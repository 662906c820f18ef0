/**
 * The subtitle streams inside a video, read with ffprobe once per content and remembered in media_info (kind
 * "subtitles"), as the video probe is. Text codecs become WebVTT; pictures of text (PGS, VobSub, DVB) cannot.
 */
import type { AppContext } from '../context.js';
import { isDatabaseUnavailable, isDiskFull } from '../http/errors.js';
import { createLimiter } from './limiter.js';
import { withBlobFile } from './media-blobs.js';
import { INPUT_GUARD, isTransient, MediaToolError, mediaTools, runTool } from './media-tools.js';

export interface SubtitleStream {
  /** ffprobe's stream index in the file (what -map 0:N names). */
  index: number;
  codec: string;
  kind: 'text' | 'image';
  /** As tagged: ISO 639-2 mostly (eng), '' when untagged or "und". */
  language: string;
  title: string;
  default: boolean;
  forced: boolean;
}

/** Codecs ffmpeg decodes to text, so its WebVTT encoder can write them. */
const TEXT_CODECS = new Set([
  'subrip', 'srt', 'ass', 'ssa', 'mov_text', 'webvtt', 'text', 'microdvd', 'subviewer', 'subviewer1', 'sami',
  'realtext', 'mpl2', 'vplayer', 'pjs', 'stl', 'jacosub', 'eia_608',
]);

/** Text or picture, by codec: anything not known to be text is treated as a picture (not offered as text). */
export const subtitleKind = (codec: string): 'text' | 'image' => (TEXT_CODECS.has(codec) ? 'text' : 'image');

interface FfprobeSubtitle {
  index?: number;
  codec_name?: string;
  tags?: Record<string, string>;
  disposition?: { default?: number; forced?: number };
}

/** The subtitle streams of ffprobe's JSON answer. */
export function parseSubtitleStreams(json: string): SubtitleStream[] {
  let parsed: { streams?: FfprobeSubtitle[] };
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new MediaToolError('The media could not be read.');
  }
  return (parsed.streams ?? [])
    .filter((s) => typeof s.index === 'number')
    .map((s) => {
      const tags = Object.fromEntries(Object.entries(s.tags ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
      const language = (tags.language ?? '').slice(0, 35);
      const codec = s.codec_name ?? '';
      return {
        index: s.index!,
        codec,
        kind: subtitleKind(codec),
        language: language === 'und' ? '' : language,
        title: (tags.title ?? '').slice(0, 200),
        default: s.disposition?.default === 1,
        forced: s.disposition?.forced === 1,
      };
    });
}

const probing = createLimiter(2);
const inFlight = new Map<string, Promise<SubtitleStream[]>>();
const KIND = 'subtitles';

/**
 * The subtitle streams of some content; [] when it cannot be read as media. A missing tool or a time-out is not
 * remembered, so it is tried again next time.
 */
export function subtitleStreams(ctx: AppContext, hash: string): Promise<SubtitleStream[]> {
  let p = inFlight.get(hash);
  if (!p) {
    p = readStreams(ctx, hash).finally(() => inFlight.delete(hash));
    inFlight.set(hash, p);
  }
  return p;
}

async function readStreams(ctx: AppContext, hash: string): Promise<SubtitleStream[]> {
  const known = await ctx.db.selectFrom('media_info').select(['info', 'error']).where('hash', '=', hash).where('kind', '=', KIND).executeTakeFirst();
  if (known) return known.error ? [] : (JSON.parse(known.info) as { streams: SubtitleStream[] }).streams;
  let streams: SubtitleStream[];
  let error = '';
  try {
    const { ffprobe } = mediaTools(ctx.config);
    const out = await probing(() =>
      withBlobFile(ctx, hash, (path) =>
        runTool(
          ffprobe,
          ['-v', 'error', ...INPUT_GUARD, '-select_streams', 's', '-show_entries', 'stream=index,codec_name:stream_tags:stream_disposition=default,forced', '-of', 'json', `file:${path}`],
          { timeoutMs: 30_000, maxOutput: 4 * 1024 * 1024 },
        ),
      ),
    );
    streams = parseSubtitleStreams(out.toString('utf8'));
  } catch (err) {
    if (!(err instanceof MediaToolError) || isTransient(err)) return [];
    streams = [];
    error = err.message;
  }
  await ctx.db
    .insertInto('media_info')
    .values({ hash, kind: KIND, info: JSON.stringify({ streams }), error, created_at: ctx.clock.now() })
    .onConflict((oc) => oc.columns(['hash', 'kind']).doNothing())
    .execute()
    .catch((err: unknown) => {
      // Remembering is a saving: a full disk or an absent database must not fail the list that asked.
      if (!isDiskFull(err) && !isDatabaseUnavailable(err)) throw err;
    });
  return streams;
}
