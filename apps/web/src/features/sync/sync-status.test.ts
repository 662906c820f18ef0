import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SYNC_FLAG_HOLD_MS, useSyncStatus } from './sync-status';

const state = () => useSyncStatus.getState();

describe('the syncing flag', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useSyncStatus.setState({ active: 0, syncing: false, since: null });
  });
  afterEach(() => vi.useRealTimers());

  it('stays on 3 s after the last sync ends', () => {
    state().begin();
    state().begin();
    state().end();
    expect(state()).toMatchObject({ active: 1, syncing: true });
    state().end();
    expect(state()).toMatchObject({ active: 0, syncing: true });
    vi.advanceTimersByTime(SYNC_FLAG_HOLD_MS - 1);
    expect(state().syncing).toBe(true);
    vi.advanceTimersByTime(1);
    expect(state()).toMatchObject({ active: 0, syncing: false, since: null });
  });

  it('keeps one stretch when a sync begins again within the 3 s', () => {
    state().begin();
    const since = state().since;
    state().end();
    vi.advanceTimersByTime(SYNC_FLAG_HOLD_MS - 1000);
    state().begin();
    vi.advanceTimersByTime(SYNC_FLAG_HOLD_MS);
    expect(state()).toMatchObject({ active: 1, syncing: true, since });
    state().end();
    vi.advanceTimersByTime(SYNC_FLAG_HOLD_MS);
    expect(state().syncing).toBe(false);
  });
});
