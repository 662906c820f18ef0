/**
 * Feedback to the operator (seed 000 routes `feedback`, `feedback-v2`): a person sends a message, the page it was
 * about and an optional screenshot, and reads the operator's answer; the operator lists, answers and closes them in
 * the console (`/admin/v1/feedback…`, auth `admin`).
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { DecimalString, StringEnum, TimeString } from './schema-kit.js';
import { FEEDBACK_MESSAGE_MAX, FEEDBACK_SCREENSHOT_MAX_BYTES, FEEDBACK_SCREENSHOT_TYPES, FEEDBACK_STATUSES } from '../rules/feedback.js';

export * from '../rules/feedback.js';

const tag = 'Feedback';
// Base64 of the largest screenshot, and a little more: the exact size is checked on the decoded bytes.
const SCREENSHOT_BASE64_MAX = Math.ceil(FEEDBACK_SCREENSHOT_MAX_BYTES / 3) * 4 + 16;

/** One message as its author sees it. */
export const FeedbackSchema = Type.Object({
  id: Type.String(),
  message: Type.String(),
  where: Type.String({ description: "The page it was sent about ('' when none was given)." }),
  has_screenshot: Type.Boolean(),
  status: StringEnum(FEEDBACK_STATUSES, { description: 'open (waiting), answered (the operator answered), closed.' }),
  answer: Type.String({ description: "The operator's answer ('' before one)." }),
  answered_time: TimeString("When it was answered ('' before)."),
  created_time: TimeString(),
  updated_time: TimeString(),
});

/** One message as the operator sees it: also who sent it and the screenshot's type and size. */
export const AdminFeedbackSchema = Type.Object({
  ...FeedbackSchema.properties,
  user_id: Type.String(),
  user_email: Type.String({ description: "The sender's address ('' once the account is gone)." }),
  screenshot_type: Type.String({ description: "image/png, image/jpeg or image/webp ('' without a screenshot)." }),
  screenshot_size: DecimalString('Bytes (0 without a screenshot).'),
});

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Page = { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })), page_token: Type.Optional(Type.String({ maxLength: 2000 })) };
const SCREENSHOT_ANSWER = {
  raw: true as const,
  types: [...FEEDBACK_SCREENSHOT_TYPES],
  description: 'The screenshot, with its picture type, inline, never sniffed as anything else (X-Content-Type-Options: nosniff).',
};

export const feedbackRoutes = {
  sendFeedback: route({
    method: 'POST',
    path: '/v1/feedback',
    tag,
    summary: 'Send feedback',
    description: `Sends the operator a message (1 to ${FEEDBACK_MESSAGE_MAX} characters), the page it is about and, optionally, a screenshot: a PNG, JPEG or WebP picture of at most ${FEEDBACK_SCREENSHOT_MAX_BYTES} bytes, base64. The picture's type is read from its first bytes. At most 10 messages an hour per account. Answers the message as kept.`,
    auth: 'user',
    body: Type.Object({
      message: Type.String({ minLength: 1, maxLength: FEEDBACK_MESSAGE_MAX }),
      where: Type.Optional(Type.String({ maxLength: 2000, description: 'The page it is about, e.g. /all/abc.' })),
      screenshot: Type.Optional(Type.String({ maxLength: SCREENSHOT_BASE64_MAX, description: 'A PNG, JPEG or WebP picture, base64.' })),
    }),
    response: FeedbackSchema,
    errors: {
      invalid_argument: 'The message is empty or too long, or the screenshot is not a PNG, JPEG or WebP picture, or is too large.',
      too_many_requests: 'Too many messages in the last hour; the description says how long to wait.',
    },
    example: { message: 'The video player stops at 10 minutes.', where: '/all/VNq8wYkP5Y0nN6cCuO9mmwqVo1' },
  }),
  listFeedback: route({
    method: 'GET',
    path: '/v1/feedback',
    tag,
    summary: 'My feedback',
    description: "The account's own messages, newest first, with their status and the operator's answer.",
    auth: 'user',
    query: Type.Object(Page),
    response: Type.Object({ feedback: Type.Array(FeedbackSchema), next_page_token: Type.String() }),
    errors: {},
  }),
  getFeedbackScreenshot: route({
    method: 'GET',
    path: '/v1/feedback/:id/screenshot',
    tag,
    summary: "A message's screenshot",
    description: 'The screenshot sent with one of the account\'s own messages.',
    auth: 'user',
    params: IdParams,
    response: SCREENSHOT_ANSWER,
    errors: { not_found: 'The account has no message with that id, or it has no screenshot.' },
  }),
  adminListFeedback: route({
    method: 'GET',
    path: '/admin/v1/feedback',
    tag,
    summary: 'Feedback',
    description: 'Every message people sent, newest first, page by page; of one status when given.',
    auth: 'admin',
    query: Type.Object({ status: Type.Optional(StringEnum(FEEDBACK_STATUSES)), ...Page }),
    response: Type.Object({ feedback: Type.Array(AdminFeedbackSchema), next_page_token: Type.String() }),
    errors: {},
  }),
  adminGetFeedback: route({
    method: 'GET',
    path: '/admin/v1/feedback/:id',
    tag,
    summary: 'One message',
    description: 'A message with who sent it, the page it is about and its screenshot\'s type and size.',
    auth: 'admin',
    params: IdParams,
    response: AdminFeedbackSchema,
    errors: { not_found: 'No message has that id.' },
  }),
  adminUpdateFeedback: route({
    method: 'PATCH',
    path: '/admin/v1/feedback/:id',
    tag,
    summary: 'Answer, close or reopen a message',
    description:
      "`answer` answers it (the status becomes answered unless `status` says otherwise): the person reads it in Haul at once and gets it by mail. `status` closed closes it, open reopens it. Each change is recorded in the audit log.",
    auth: 'admin',
    params: IdParams,
    body: Type.Object({
      answer: Type.Optional(Type.String({ minLength: 1, maxLength: FEEDBACK_MESSAGE_MAX })),
      status: Type.Optional(StringEnum(['open', 'closed'] as const)),
    }),
    response: AdminFeedbackSchema,
    errors: { not_found: 'No message has that id.', invalid_argument: 'Nothing to change, or an answer that is only spaces.' },
    example: { answer: 'Thanks: fixed in the next version.' },
  }),
  adminGetFeedbackScreenshot: route({
    method: 'GET',
    path: '/admin/v1/feedback/:id/screenshot',
    tag,
    summary: "A message's screenshot",
    description: 'The screenshot sent with a message.',
    auth: 'admin',
    params: IdParams,
    response: SCREENSHOT_ANSWER,
    errors: { not_found: 'No message has that id, or it has no screenshot.' },
  }),
};
