import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useDialog } from '../../app/dialogs/dialog-store';
import { SharedArrivalHost } from './shared-arrival-host';
import { takeArrival, type SharedArrival } from './share-stash';
import { initI18n } from '../../lib/i18n';

// Cache Storage is the browser's (e2e/installed-app.e2e.ts reads real shares); here the stash answers what a share left.
vi.mock('./share-stash', () => ({ takeArrival: vi.fn() }));
const take = vi.mocked(takeArrival);

function start(at: string) {
  const router = createMemoryRouter([{ path: '/all', element: <SharedArrivalHost /> }], { initialEntries: [at] });
  render(<RouterProvider router={router} />);
  return () => router.state.location.pathname + router.state.location.search;
}

beforeAll(() => initI18n());
afterEach(() => {
  cleanup();
  useDialog.getState().close();
  delete (window as { launchQueue?: unknown }).launchQueue;
  take.mockReset();
});

describe(SharedArrivalHost.name, () => {
  it('opens the cloud download dialog with the links and the file of a share, and takes its key out of the address', async () => {
    const file = new File(['d4:infoe'], 'a.torrent');
    const arrival: SharedArrival = { title: 'Films', text: 'see https://a.test/f.iso.', url: 'magnet:?xt=urn:btih:abc', file };
    take.mockResolvedValue(arrival);
    const where = start('/all?action=create_task&shared=k1&sort=name');
    await vi.waitFor(() => expect(useDialog.getState().dialog).toMatchObject({ type: 'cloud-download', path: [] }));
    expect(useDialog.getState().dialog).toEqual({
      type: 'cloud-download',
      path: [],
      text: 'magnet:?xt=urn:btih:abc\nhttps://a.test/f.iso',
      torrentFile: file,
    });
    expect(take).toHaveBeenCalledExactlyOnceWith('k1');
    expect(where()).toBe('/all?sort=name');
  });

  it('opens nothing for a share that is gone or brought nothing to download', async () => {
    take.mockResolvedValue(null);
    start('/all?shared=gone');
    await vi.waitFor(() => expect(take).toHaveBeenCalled());
    take.mockResolvedValue({ title: 'A page', text: 'just words', url: '', file: null });
    cleanup();
    start('/all?shared=empty');
    await vi.waitFor(() => expect(take).toHaveBeenCalledWith('empty'));
    await act(() => Promise.resolve());
    expect(useDialog.getState().dialog).toBeNull();
  });

  it('opens a .torrent file the system launched the app with', async () => {
    let consumer: ((p: { files: { getFile: () => Promise<File> }[] }) => Promise<void>) | undefined;
    (window as { launchQueue?: unknown }).launchQueue = { setConsumer: (c: typeof consumer) => (consumer = c) };
    start('/all');
    const file = new File(['d4:infoe'], 'album.torrent', { type: 'application/x-bittorrent' });
    await act(() => consumer!({ files: [{ getFile: async () => file }] }));
    expect(useDialog.getState().dialog).toEqual({ type: 'cloud-download', path: [], text: '', torrentFile: file });
    expect(take).not.toHaveBeenCalled();
  });
});
