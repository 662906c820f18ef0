/** The console's feedback calls, with query keys under ['admin'] (a change refreshes the console at once). */
import type { AdminFeedbackSchema, FeedbackStatus, Static } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { ADMIN_KEY, PAGE_SIZE } from './admin-api';

export type AdminFeedback = Static<typeof AdminFeedbackSchema>;

export const feedbackListKey = (status: string) => [...ADMIN_KEY, 'feedback', 'list', status] as const;
export const feedbackKey = (id: string) => [...ADMIN_KEY, 'feedback', 'one', id] as const;
/** The screenshot's bytes never change: outside ['admin'], so a change does not fetch them again. */
export const feedbackShotKey = (id: string) => ['admin-feedback-shot', id] as const;

/** A page of messages, newest first; of one status when given. */
export const listFeedback = (status: FeedbackStatus | '', pageToken: string, signal?: AbortSignal) =>
  haul.call('adminListFeedback', { query: { status: status || undefined, limit: PAGE_SIZE, page_token: pageToken || undefined }, signal });

export const getFeedback = (id: string, signal?: AbortSignal) => haul.call('adminGetFeedback', { params: { id }, signal });

/** Answers, closes or reopens; answers the message as it now is. */
export const updateFeedback = (id: string, change: { answer?: string; status?: 'open' | 'closed' }) => haul.call('adminUpdateFeedback', { params: { id }, body: change });

export const feedbackScreenshot = async (id: string, signal?: AbortSignal): Promise<Blob> =>
  (await haul.call('adminGetFeedbackScreenshot', { params: { id }, signal })).blob();
