/** Feedback to the operator (migration 0040). */
export interface FeedbackTable {
  id: string;
  user_id: string;
  message: string;
  /** The page it is about ('' when none was given). */
  page: string;
  /** The screenshot's blob ('' without one); it holds one reference in `blobs`. */
  screenshot_hash: string;
  /** image/png, image/jpeg or image/webp, read from its bytes ('' without one). */
  screenshot_type: string;
  screenshot_size: number;
  /** open, answered or closed. */
  status: string;
  answer: string;
  /** The operator's account that answered last ('' before an answer). */
  answered_by: string;
  /** Epoch ms of the last answer, null before one. */
  answered_at: number | null;
  created_at: number;
  updated_at: number;
}
