/**
 * A screenshot sent with feedback: base64 in, bytes out, its picture type read from its first bytes (PNG, JPEG or
 * WebP). Whatever the client called it, anything else is refused, so nothing but a picture is ever kept or served.
 */
import { FEEDBACK_SCREENSHOT_MAX_BYTES } from '@haul/shared';
import { badInput } from '../http/errors.js';

export type ScreenshotType = 'image/png' | 'image/jpeg' | 'image/webp';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The picture type of `bytes` by their signature, or null for anything else. */
export function pictureType(bytes: Buffer): ScreenshotType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes and checks a screenshot; a 400 naming what is wrong otherwise. */
export function readScreenshot(base64: string): { bytes: Buffer; type: ScreenshotType } {
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) throw badInput('The screenshot is not base64.');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw badInput('The screenshot is empty.');
  if (bytes.length > FEEDBACK_SCREENSHOT_MAX_BYTES) throw badInput(`The screenshot is larger than ${FEEDBACK_SCREENSHOT_MAX_BYTES / 1024 / 1024} MB.`);
  const type = pictureType(bytes);
  if (!type) throw badInput('The screenshot must be a PNG, JPEG or WebP picture.');
  return { bytes, type };
}
