import { ApiError, LOCAL_ERROR } from '@haul/client';
import { limitDescription } from '@haul/shared/plain';
import { describe, expect, it } from 'vitest';
import { addedWords, describeFailure, limitLinkFor, NotHaulError, signedOutWords } from './words';

const SERVER = 'https://haul.example.com';

describe('describeFailure', () => {
  it('says what the person can do about each failure', () => {
    expect(describeFailure(new ApiError(0, LOCAL_ERROR, 'fetch failed'), SERVER)).toMatch(/^Haul at haul.example.com cannot be reached/);
    expect(describeFailure(new NotHaulError(SERVER), SERVER)).toMatch(/^haul.example.com does not answer as a Haul server/);
    expect(describeFailure(new ApiError(401, 'unauthenticated', 'No valid access token'), SERVER)).toBe(signedOutWords());
    expect(describeFailure(new ApiError(400, 'invalid_argument', 'The link is not valid: ftp://x'), SERVER)).toBe('Haul cannot fetch this: The link is not valid: ftp://x');
  });

  it('names the limit that was reached by its title', () => {
    const title = "Today's cloud downloads are used up";
    const err = new ApiError(403, 'task_daily_create_limit', title, {
      error: 'task_daily_create_limit',
      error_code: 8,
      error_description: limitDescription({ title, kind: 'cloud_download', limit: '5', usage: '5' }),
      error_uri: '',
      details: [],
    });
    expect(describeFailure(err, SERVER)).toBe(`Limit reached: ${title}`);
  });
});

describe('addedWords', () => {
  it('counts what was added and what was left out', () => {
    expect(addedWords(1, 'My drive', 0)).toBe('Added to Haul, into My drive.');
    expect(addedWords(3, 'Films', 2)).toBe('3 links added to Haul, into Films. 2 lines were not a link Haul can fetch.');
  });
});

describe('limitLinkFor', () => {
  it('opens the drive’s storage dialog for room, the traffic dialog for allowances, nothing for other errors', () => {
    expect(limitLinkFor('file_space_not_enough', SERVER)?.href).toBe(`${SERVER}/drive/all?action=show_storage_dialog`);
    expect(limitLinkFor('task_daily_create_limit', SERVER)?.href).toBe(`${SERVER}/drive/all?action=show_traffic_dialog`);
    expect(limitLinkFor('monthly_cloud_download_size_exceeded', SERVER)?.href).toBe(`${SERVER}/drive/all?action=show_traffic_dialog`);
    expect(limitLinkFor('invalid_argument', SERVER)).toBeNull();
  });
});
