import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { OfflineBanner } from './offline-banner';

beforeAll(() => initI18n());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const network = (online: boolean) => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
};

describe(OfflineBanner.name, () => {
  it('says "You are offline" while the browser has no network, and goes when it is back', () => {
    network(true);
    render(<OfflineBanner />);
    expect(screen.queryByRole('status')).toBeNull();
    act(() => network(false));
    expect(screen.getByRole('status').textContent).toMatch(/^You are offline\. /);
    act(() => network(true));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
