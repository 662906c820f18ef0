/** Feedback's limits and statuses, shared by the contract, the server and the web app. */

/** Characters a message (and an answer) may hold. */
export const FEEDBACK_MESSAGE_MAX = 5000;
/** Bytes a screenshot may have. */
export const FEEDBACK_SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;
/** The picture types a screenshot may be (told apart by its first bytes, not by what the client says). */
export const FEEDBACK_SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const FEEDBACK_STATUSES = ['open', 'answered', 'closed'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];
