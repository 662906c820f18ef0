/**
 * Recent's feed and what is new in it (seed 000: LATEST_EVENT_CREATE_TIME, newEventsCount, highlightNewEventIds):
 * the newest event time seen on Recent is kept per account in this browser; the sidebar counts the events after it
 * (another device's upload, a download that landed), and Recent marks those rows once, then moves the mark.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { LIMITS } from '@haul/shared/plain';
import type { DriveEvent } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { useSessionStore } from '../auth/session-store';

export const RECENT_KEY = ['recent'] as const;
/** The sidebar's count is asked again this often (and when the window comes back). */
const COUNT_EVERY_MS = 60_000;

export const listRecentEvents = (signal?: AbortSignal) =>
  haul.call('listEvents', { query: { limit: LIMITS.eventsDefault, thumbnail_size: 'SIZE_MEDIUM' }, signal });

/** The mark per account, kept in this browser; a change re-renders the badge and the page alike. */
const useMarks = create<{ marks: Record<string, string> }>()(persist(() => ({ marks: {} }), { name: 'haul.latestEventTime' }));

/** The newest event time seen on Recent ('' before the first look). */
export const readMark = (userId: string): string => useMarks.getState().marks[userId] ?? '';

/** Moves the mark to the newest of `events` (never back). */
export function writeMark(userId: string, events: DriveEvent[]): void {
  const before = readMark(userId);
  const newest = events.reduce((m, e) => (e.updated_time > m ? e.updated_time : m), before);
  if (newest && newest !== before) useMarks.setState((s) => ({ marks: { ...s.marks, [userId]: newest } }));
}

/** The events after the mark; none before the first look, so an account's history is not all "new" at once. */
export const newEvents = (events: DriveEvent[], mark: string): DriveEvent[] => (mark ? events.filter((e) => e.updated_time > mark) : []);

/** How many events arrived since Recent was last looked at (the sidebar's badge). */
export function useNewEventsCount(): number {
  const userId = useSessionStore((s) => s.session?.userId ?? '');
  const mark = useMarks((s) => s.marks[userId] ?? '');
  const q = useQuery({ queryKey: RECENT_KEY, queryFn: ({ signal }) => listRecentEvents(signal), enabled: !!userId, refetchInterval: COUNT_EVERY_MS, meta: { quiet: true } });
  // A first look anywhere sets the mark, so only what comes after counts.
  useEffect(() => {
    if (userId && q.data && !mark) writeMark(userId, q.data.events);
  }, [userId, q.data, mark]);
  return userId && q.data ? newEvents(q.data.events, mark).length : 0;
}
