import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { DriveFile } from '@haul/shared';
import { useViewerAddress } from './use-viewer-address';
import { closedListFor, inPlayerWindow, playerWindowAddress, previewIn, withPreview } from './viewer-address';
import { openInViewer, useViewer } from './viewer-store';

const photo = (id: string) => ({ id, name: `${id}.png`, kind: 'drive#file', mime_type: 'image/png' }) as DriveFile;
const photos = [photo('a'), photo('b'), photo('c')];

let pending: string | null = null;
function Probe() {
  pending = useViewerAddress().pending;
  return null;
}

function start(at: string) {
  const router = createMemoryRouter([{ path: '/all/:id?', element: <Probe /> }], { initialEntries: ['/all', at], initialIndex: 1 });
  render(<RouterProvider router={router} />);
  const where = () => router.state.location.pathname + router.state.location.search;
  const shown = () => useViewer.getState().files[useViewer.getState().index]?.id ?? null;
  const travel = (delta: number) => act(() => router.navigate(delta));
  return { router, where, shown, travel };
}

afterEach(() => {
  cleanup();
  useViewer.getState().close();
  pending = null;
});

describe('viewer address', () => {
  it('names the file beside the other parameters, and drops it', () => {
    expect(withPreview('?action=search&name=x', 'f1')).toBe('?action=search&name=x&preview=f1');
    expect(withPreview('?preview=f1&name=x', null)).toBe('?name=x');
    expect(withPreview('?preview=f1', null)).toBe('');
    expect(previewIn('?name=x&preview=f2')).toBe('f2');
    expect(previewIn('?preview=')).toBeNull();
  });

  it('opens a player window over the same page, on the file', () => {
    const at = playerWindowAddress('/drive/all/d1', '?name=x&preview=f1', 'f2');
    expect(at).toBe('/drive/all/d1?name=x&preview=f2&window=player');
    expect(inPlayerWindow(at.slice(at.indexOf('?')))).toBe(true);
    expect(inPlayerWindow('?preview=f2')).toBe(false);
  });
});

describe(useViewerAddress.name, () => {
  it('pushes an entry on open, replaces it on next, and closes on Back; Forward asks for the file again', async () => {
    const { router, where, shown, travel } = start('/all/F');
    act(() => void openInViewer(photos, photos[0]!, 'cloud_page'));
    expect(where()).toBe('/all/F?preview=a');
    expect(router.state.historyAction).toBe('PUSH');

    act(() => useViewer.getState().go(1));
    expect(where()).toBe('/all/F?preview=b');
    expect(router.state.historyAction).toBe('REPLACE');

    await travel(-1);
    expect(where()).toBe('/all/F');
    expect(shown()).toBeNull();
    // The list just closed is kept for Forward.
    expect(closedListFor('/all/F', 'b')?.files).toEqual(photos);

    await travel(1);
    expect(where()).toBe('/all/F?preview=b');
    expect(pending).toBe('b');
  });

  it('closing goes back from its own entry, so Forward can reopen it', async () => {
    const { router, where } = start('/all/F');
    act(() => void openInViewer(photos, photos[2]!, 'cloud_page'));
    await act(async () => useViewer.getState().close());
    await act(() => new Promise((r) => setTimeout(r, 10)));
    expect(where()).toBe('/all/F');
    expect(router.state.historyAction).toBe('POP');
  });

  it('an address opened directly asks for its file; closing then only drops the parameter', async () => {
    const { router, where } = start('/all/F?name=x&preview=b');
    expect(pending).toBe('b');
    // What OpenFromAddress does once it found the file.
    act(() => useViewer.getState().open(photos, 'b', 'cloud_page'));
    act(() => useViewer.getState().close());
    expect(where()).toBe('/all/F?name=x');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('leaving the page closes the viewer', async () => {
    const { router, shown } = start('/all/F');
    act(() => void openInViewer(photos, photos[1]!, 'cloud_page'));
    await act(() => router.navigate('/all/G'));
    expect(shown()).toBeNull();
  });
});
