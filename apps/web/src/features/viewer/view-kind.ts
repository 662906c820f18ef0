/**
 * What the viewer can show: the seeds' media (image, video, audio), plus plain text and PDF. Text is read as text and
 * shown in a <pre>, never rendered as markup (HTML, SVG and Markdown are shown as their source).
 */
import { canDecompress, extensionOf, mediaTypeOf } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';

export type ViewKind = 'image' | 'video' | 'audio' | 'text' | 'pdf';

const TEXT_EXT = new Set(
  (
    'txt text md markdown rst log csv tsv json jsonl ndjson xml yaml yml toml ini cfg conf env properties srt vtt ass ssa sub lrc nfo ' +
    'c h cc cpp cxx hpp hh cs java kt kts go rs py rb php pl pm lua r swift m mm scala clj dart js mjs cjs jsx tsx ' +
    'sh bash zsh fish ps1 bat cmd sql graphql gql proto css scss sass less html htm xhtml vue svelte tex bib diff patch ' +
    'gradle cmake mk makefile dockerfile gitignore gitattributes editorconfig lock'
  ).split(' '),
);
/** Names without an extension that are text by convention. */
const TEXT_NAMES = new Set(['readme', 'license', 'licence', 'copying', 'authors', 'changelog', 'makefile', 'dockerfile', 'notice', 'todo']);
const TEXT_MIME = /^(text\/|application\/(json|xml|x-yaml|yaml|toml|javascript|x-sh|sql|x-subrip)\b)/;

/** How the viewer shows `file`, or null when it cannot (it is downloaded instead). */
export function viewKindOf(file: Pick<DriveFile, 'name' | 'mime_type'>): ViewKind | null {
  const media = mediaTypeOf(file.name, file.mime_type);
  if (media) return media;
  const ext = extensionOf(file.name);
  if (ext === 'pdf' || file.mime_type === 'application/pdf') return 'pdf';
  if (TEXT_EXT.has(ext) || TEXT_MIME.test(file.mime_type) || (!ext && TEXT_NAMES.has(file.name.toLowerCase()))) return 'text';
  return null;
}

/** An archive (zip, 7z, rar, tar…) the viewer cannot show: it opens on its archive page instead. */
export function archivePageOf(file: Pick<DriveFile, 'id' | 'kind' | 'name' | 'mime_type'>): string | null {
  return file.kind === 'drive#file' && canDecompress(file.name) && viewKindOf(file) === null ? `/decompression/${file.id}` : null;
}
