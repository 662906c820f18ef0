/**
 * Subtitle files beside a video: in its folder, named as the video without its extension, then optionally a language
 * and notes, then .srt, .ass, .ssa or .vtt (Film.srt, Film.en.srt, Film.zh-CN.forced.ass). Names compare without case.
 */
import { FILE_KIND, PHASE } from '@haul/shared';
import { sql, type SqlBool } from 'kysely';
import type { AppContext } from '../context.js';
import type { FileRow } from '../db/schema.js';
import { subtitleFormatOf } from './subtitle-formats.js';

/** Sidecars listed at most: a folder of one video has a handful. */
const MAX_SIDECARS = 50;

/** The video's name without its extension. */
export const baseName = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
};

/** A language tag: ISO 639 (en, eng) with optional region or script (zh-CN, pt-BR, zh-Hant, sr-Latn). */
const LANGUAGE = /^[a-z]{2,3}(?:[-_](?:[a-z]{4}|[a-z]{2}|\d{3}))*$/i;

/**
 * What a subtitle file's name says beyond the video's base name: the first part that reads as a language, and the rest
 * as a title (forced, SDH); null when the file is not a subtitle file of that video.
 */
export function sidecarNameParts(videoName: string, subtitleName: string): { language: string; title: string } | null {
  if (!subtitleFormatOf(subtitleName)) return null;
  const base = baseName(videoName).toLowerCase();
  const sub = baseName(subtitleName);
  if (sub.toLowerCase() === base) return { language: '', title: '' };
  if (!sub.toLowerCase().startsWith(`${base}.`)) return null;
  const parts = sub.slice(base.length + 1).split('.').filter(Boolean);
  const at = parts.findIndex((p) => LANGUAGE.test(p));
  const language = at >= 0 ? parts[at]!.replace('_', '-') : '';
  return { language, title: parts.filter((_, i) => i !== at).join(' ').slice(0, 200) };
}

/** True for a live, complete file whose name is a subtitle file's. */
export const isSubtitleFile = (f: FileRow) =>
  f.kind === FILE_KIND && f.trashed === 0 && f.phase === PHASE.COMPLETE && f.hash !== '' && subtitleFormatOf(f.name) !== null;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The video's sidecar subtitle files, by name. */
export async function findSidecars(ctx: AppContext, video: FileRow): Promise<FileRow[]> {
  const prefix = `${likeEscape(baseName(video.name).toLowerCase())}.%`;
  const rows = await ctx.db
    .selectFrom('files')
    .selectAll()
    .where('user_id', '=', video.user_id)
    .where('parent_id', '=', video.parent_id)
    .where('trashed', '=', 0)
    .where(sql<SqlBool>`lower(name) LIKE ${prefix} ESCAPE '\\'`)
    .orderBy('name')
    .limit(MAX_SIDECARS * 4)
    .execute();
  return rows.filter((r) => r.id !== video.id && isSubtitleFile(r) && sidecarNameParts(video.name, r.name)).slice(0, MAX_SIDECARS);
}
