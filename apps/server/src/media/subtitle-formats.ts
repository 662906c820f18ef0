/**
 * Subtitle text in, clean WebVTT out: SRT, WebVTT and ASS/SSA read into cues, cue text stripped of anything but <b>,
 * <i> and <u> (ASS override tags, HTML, WebVTT classes and voices dropped; the rest escaped), written as WebVTT.
 * Subtitles come from strangers: what leaves here is plain text to the browser's WebVTT parser, with no cue settings.
 */

export interface Cue {
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

export type SubtitleFormat = 'srt' | 'vtt' | 'ass';

/** The format of a subtitle file by its extension (ssa reads as ass); null when it is not one. */
export function subtitleFormatOf(name: string): SubtitleFormat | null {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'srt') return 'srt';
  if (ext === 'vtt') return 'vtt';
  if (ext === 'ass' || ext === 'ssa') return 'ass';
  return null;
}

/** Cues of a subtitle file's text, in time order, empty ones dropped. */
export function parseSubtitles(text: string, format: SubtitleFormat): Cue[] {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const cues = format === 'ass' ? parseAss(body) : parseBlocks(body);
  return cues.filter((c) => c.text !== '' && c.end > c.start).sort((a, b) => a.start - b.start || a.end - b.end);
}

const TIME = /(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})[.,](\d{1,3})/;
const TIMING = new RegExp(`^\\s*${TIME.source}\\s*-->\\s*${TIME.source}`);

function seconds(h: string | undefined, m: string, s: string, frac: string): number {
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(frac.padEnd(3, '0')) / 1000;
}

/** SRT and WebVTT: blocks split by blank lines, each with a timing line; text lines after it. */
function parseBlocks(body: string): Cue[] {
  const cues: Cue[] = [];
  for (const block of body.split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => TIMING.test(l));
    // WebVTT's NOTE, STYLE and REGION blocks have no timing line; neither has the header.
    if (at < 0 || at > 1) continue;
    const m = TIMING.exec(lines[at]!)!;
    const text = lines.slice(at + 1).join('\n');
    cues.push({
      start: seconds(m[1], m[2]!, m[3]!, m[4]!),
      end: seconds(m[5], m[6]!, m[7]!, m[8]!),
      text: cleanHtmlish(text),
    });
  }
  return cues;
}

/** ASS/SSA: Dialogue lines of the [Events] section, read by its Format line (Text is the last field, commas and all). */
function parseAss(body: string): Cue[] {
  const cues: Cue[] = [];
  let inEvents = false;
  let fields = ['layer', 'start', 'end', 'style', 'name', 'marginl', 'marginr', 'marginv', 'effect', 'text'];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inEvents = line.toLowerCase() === '[events]';
      continue;
    }
    if (!inEvents) continue;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1);
    if (key === 'format') {
      fields = value.split(',').map((f) => f.trim().toLowerCase());
      continue;
    }
    if (key !== 'dialogue') continue;
    const parts = value.split(',');
    const textAt = fields.indexOf('text');
    if (textAt < 0 || parts.length < fields.length) continue;
    const get = (f: string) => parts[fields.indexOf(f)]?.trim() ?? '';
    const start = assTime(get('start'));
    const end = assTime(get('end'));
    if (start === null || end === null) continue;
    cues.push({ start, end, text: cleanAss(parts.slice(textAt).join(',')) });
  }
  return cues;
}

function assTime(s: string): number | null {
  const m = /^(\d+):(\d{1,2}):(\d{1,2})[.,](\d{1,3})$/.exec(s);
  return m ? seconds(m[1], m[2]!, m[3]!, m[4]!) : null;
}

/**
 * ASS text: override blocks ({\an8\pos(…)}, {\i1}) dropped but for italics, bold and underline; \N and \n are line
 * breaks, \h a space. A line drawn with \p (vector drawing) is no text at all.
 */
export function cleanAss(text: string): string {
  if (/\{[^}]*\\p[1-9]/.test(text)) return '';
  let out = '';
  const open = { i: false, b: false, u: false };
  const set = (tag: 'i' | 'b' | 'u', on: boolean) => {
    if (open[tag] === on) return;
    open[tag] = on;
    out += on ? `<${tag}>` : `</${tag}>`;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '{') {
      const close = text.indexOf('}', i);
      if (close < 0) break;
      for (const m of text.slice(i + 1, close).matchAll(/\\([ibu])(\d)?(?![a-z])/g)) set(m[1] as 'i' | 'b' | 'u', m[2] !== '0');
      i = close;
    } else if (ch === '\\' && (text[i + 1] === 'N' || text[i + 1] === 'n')) {
      out += '\n';
      i++;
    } else if (ch === '\\' && text[i + 1] === 'h') {
      out += ' ';
      i++;
    } else out += escapeText(ch);
  }
  for (const tag of ['u', 'b', 'i'] as const) set(tag, false);
  return tidy(out);
}

/**
 * SRT and WebVTT text: <b>, <i> and <u> kept (without classes), every other tag dropped (<font>, <c.x>, <v Name>,
 * <script>, timestamps), ASS-style override blocks some SRT files carry dropped too, and text escaped.
 */
export function cleanHtmlish(text: string): string {
  let out = '';
  const stack: string[] = [];
  const re = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*|\d[\d:.]*)(?:[\s.][^<>]*)?>|\{\\[^}]*\}|&(amp|lt|gt|nbsp|lrm|rlm);|[^<{&]+|[<{&]/g;
  for (const m of text.matchAll(re)) {
    const [whole, slash, name, entity] = m;
    if (entity) out += entity === 'nbsp' ? '&nbsp;' : `&${entity};`;
    else if (whole.startsWith('{\\')) continue;
    else if (whole.startsWith('<') && whole.length > 1 && name !== undefined && whole.endsWith('>')) {
      const tag = name.split('.')[0]!.toLowerCase();
      if (tag !== 'b' && tag !== 'i' && tag !== 'u') continue;
      if (!slash) {
        stack.push(tag);
        out += `<${tag}>`;
      } else if (stack.includes(tag)) {
        // Close what was opened inside it first, so the tags stay nested.
        while (stack.length) {
          const top = stack.pop()!;
          out += `</${top}>`;
          if (top === tag) break;
        }
      }
    } else out += escapeText(whole);
  }
  while (stack.length) out += `</${stack.pop()}>`;
  return tidy(out);
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** No blank lines inside a cue (they would end it), no "-->" (it would read as a timing line), trimmed. */
function tidy(s: string): string {
  return s
    .replace(/-->/g, '--&gt;')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l.replace(/<\/?[biu]>/g, '') !== '')
    .join('\n');
}

const clock = (t: number) => {
  const ms = Math.max(0, Math.round(t * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
};

/** The cues as a WebVTT file: the header, then each cue with its timing and clean text, no ids or settings. */
export function toWebVtt(cues: Cue[]): string {
  return ['WEBVTT', '', ...cues.map((c) => `${clock(c.start)} --> ${clock(c.end)}\n${c.text}\n`)].join('\n');
}

/** Legacy encodings by language, for subtitle files not in UTF-8 (most old SRT files are in their region's code page). */
const LEGACY: [RegExp, string][] = [
  [/^(zh-(tw|hk|mo|hant)|cht|zht)/i, 'big5'],
  [/^(zh|chi|zho|chs|zhs)/i, 'gb18030'],
  [/^(ja|jpn)/i, 'shift_jis'],
  [/^(ko|kor)/i, 'euc-kr'],
  [/^(ru|rus|uk|ukr|be|bel|bg|bul|sr|srp|mk|mac|mkd)\b/i, 'windows-1251'],
  [/^(pl|pol|cs|cze|ces|sk|slo|slk|hu|hun|ro|rum|ron|hr|hrv|sl|slv)\b/i, 'windows-1250'],
  [/^(el|gre|ell)\b/i, 'windows-1253'],
  [/^(tr|tur)\b/i, 'windows-1254'],
  [/^(he|heb)\b/i, 'windows-1255'],
  [/^(ar|ara|fa|per|fas)\b/i, 'windows-1256'],
  [/^(th|tha)\b/i, 'windows-874'],
  [/^(vi|vie)\b/i, 'windows-1258'],
];

/** The legacy encoding of the first language that names one, else windows-1252. */
export function legacyEncoding(languages: string[]): string {
  for (const lang of languages) {
    const hit = LEGACY.find(([re]) => re.test(lang.trim()));
    if (hit) return hit[1];
  }
  return 'windows-1252';
}

/** Text of subtitle bytes: by byte order mark, else UTF-8 when the bytes allow, else the legacy encoding given. */
export function decodeSubtitleBytes(bytes: Uint8Array, legacy: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder(legacy).decode(bytes);
  }
}

/** Languages of an Accept-Language header, most wanted first. */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? 1);
      return { tag: tag!.trim(), q: Number.isFinite(q) ? q : 0 };
    })
    .filter((l) => l.tag && l.tag !== '*')
    .sort((a, b) => b.q - a.q)
    .map((l) => l.tag);
}
