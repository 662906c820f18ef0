/** The person's feedback calls and their query key; a screenshot is read as a Blob (the route wants the bearer token). */
import type { FeedbackSchema, Static } from '@haul/shared';
import { haul } from '../../lib/api-client';

export type Feedback = Static<typeof FeedbackSchema>;

export const OWN_FEEDBACK_KEY = ['feedback'] as const;

/** Sends a message; `screenshot` is the picture's bytes in base64. */
export const sendFeedback = (body: { message: string; where?: string; screenshot?: string }) => haul.call('sendFeedback', { body });

/** The account's own messages, newest first. */
export const listOwnFeedback = (pageToken: string, signal?: AbortSignal) =>
  haul.call('listFeedback', { query: { limit: 50, page_token: pageToken || undefined }, signal });

/** The screenshot of one of the account's own messages. */
export const ownScreenshot = async (id: string, signal?: AbortSignal): Promise<Blob> =>
  (await haul.call('getFeedbackScreenshot', { params: { id }, signal })).blob();

/** A picked file as base64, without the data: prefix. */
export async function fileBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  // In slices: one String.fromCharCode over megabytes overflows the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
