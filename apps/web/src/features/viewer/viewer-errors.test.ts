import { describe, expect, it } from 'vitest';
import { errorBody } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { ApiError, LOCAL_ERROR } from '../../lib/api-error';
import { buttonsFor, failureOfCall, failureOfDetail, failureOfProbe, pictureOf } from './viewer-errors';

const file = (o: Partial<DriveFile> = {}) =>
  ({ id: 'f', name: 'a.jpg', trashed: false, web_content_link: '/c/f', thumbnail_link: '', medias: [], ...o }) as DriveFile;
const apiError = (status: number, name: Parameters<typeof errorBody>[0], text: string) =>
  new ApiError(status, name, text, errorBody(name, text));

describe('viewer error popups', () => {
  it('maps a failed details call: the trash is code 9, the network 1002, anything else the server’s words', () => {
    expect(failureOfCall(apiError(400, 'file_in_recycle_bin', 'in the trash'))).toEqual({ cause: 'deleted', code: 9 });
    expect(failureOfCall(new ApiError(0, LOCAL_ERROR, 'Cannot reach the server'))).toEqual({ cause: 'network', code: 1002 });
    expect(failureOfCall(new TypeError('Failed to fetch'))).toEqual({ cause: 'network', code: 1002 });
    expect(failureOfCall(apiError(404, 'file_not_found', 'No such file of yours.'))).toEqual({
      cause: 'server',
      code: 5,
      message: 'No such file of yours.',
    });
  });

  it('refuses details that cannot load: trashed, an image or a play without a link (1001)', () => {
    expect(failureOfDetail('image', file({ trashed: true }))).toEqual({ cause: 'deleted', code: 9 });
    expect(failureOfDetail('image', file({ web_content_link: '' }))).toEqual({ cause: 'no_link', code: 1001 });
    expect(failureOfDetail('image', file({ web_content_link: '', thumbnail_link: '/t' }))).toBeNull();
    expect(failureOfDetail('video', file({ name: 'v.mp4', web_content_link: '' }))).toEqual({ cause: 'no_link', code: 1001 });
    // A rendition still being made is something to wait for, not a missing link.
    const pending = { is_visible: false, link: { url: '', expire: '' } } as NonNullable<DriveFile['medias']>[number];
    expect(failureOfDetail('video', file({ name: 'v.mkv', web_content_link: '', medias: [pending] }))).toBeNull();
    expect(failureOfDetail('audio', file({ name: 's.mp3' }))).toBeNull();
  });

  it('tells a network failure from a format the browser cannot play by probing the link', () => {
    const fault = { link: '/c/f' };
    expect(failureOfProbe(fault, { status: -1 })).toEqual({ cause: 'network', code: 1002 });
    expect(failureOfProbe(fault, { status: 206 })).toEqual({ cause: 'unsupported', code: null });
    // The element saw the network drop, the link answers now: still the network.
    expect(failureOfProbe({ ...fault, element: 'network' }, { status: 206 })).toEqual({ cause: 'network', code: 1002 });
    expect(failureOfProbe({}, { status: 200 })).toEqual({ cause: 'no_link', code: 1001 });
    const gone = { status: 404, error: 'file_not_found', errorCode: 5, description: 'The link has expired or the file no longer exists.' };
    expect(failureOfProbe(fault, gone, { detail: file({ trashed: true }) })).toEqual({ cause: 'deleted', code: 9 });
    expect(failureOfProbe(fault, gone, { error: apiError(400, 'file_in_recycle_bin', 'x') })).toEqual({ cause: 'deleted', code: 9 });
    expect(failureOfProbe(fault, gone, { detail: file() })).toEqual({ cause: 'server', code: 5, message: gone.description });
    expect(failureOfProbe(fault, { status: 502 }, { detail: file() })).toEqual({ cause: 'server', code: 502, message: undefined });
  });

  it('offers the seed’s buttons for each cause and platform', () => {
    const desk = { mobile: false, hasNext: true, canDownload: true };
    expect(buttonsFor({ cause: 'network', code: 1002 }, 'image', desk)).toEqual(['retry', 'next']);
    expect(buttonsFor({ cause: 'deleted', code: 9 }, 'video', desk)).toEqual(['next', 'retry']);
    expect(buttonsFor({ cause: 'server', code: 7 }, 'audio', { ...desk, hasNext: false })).toEqual(['retry']);
    const unsupported = { cause: 'unsupported', code: null } as const;
    expect(buttonsFor(unsupported, 'video', desk)).toEqual(['external', 'download', 'next']);
    expect(buttonsFor(unsupported, 'audio', { ...desk, mobile: true })).toEqual(['download', 'next']);
    expect(buttonsFor(unsupported, 'image', desk)).toEqual(['download', 'next']);
    expect(pictureOf({ cause: 'network', code: 1002 })).toBe('network');
    expect(pictureOf(unsupported)).toBe('unsupported');
  });
});
