/**
 * sharp (libvips) and music-metadata, loaded on the first picture or track looked at rather than at start: libvips
 * alone is ~25 MB resident, which a server that never makes a thumbnail need not carry (bench/README.md, memory).
 */
import type Sharp from 'sharp';

let sharpLoading: Promise<typeof Sharp> | undefined;
let metadataLoading: Promise<typeof import('music-metadata')> | undefined;

export const loadSharp = (): Promise<typeof Sharp> => (sharpLoading ??= import('sharp').then((m) => m.default));
export const loadMusicMetadata = (): Promise<typeof import('music-metadata')> => (metadataLoading ??= import('music-metadata'));
