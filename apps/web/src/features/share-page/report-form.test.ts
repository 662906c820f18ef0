// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { REPORT_MESSAGE_MAX } from '@haul/shared/plain';
import { reportBody, reportProblem, type ReportDraft } from './report-form';

const draft = (over: Partial<ReportDraft> = {}): ReportDraft => ({
  shareId: 's1',
  token: '',
  fileId: '',
  reason: 'copyright',
  message: '',
  ...over,
});

describe('reportProblem', () => {
  it('asks for a reason first', () => {
    expect(reportProblem(draft({ reason: '' }))).toBe('reason');
    expect(reportProblem(draft({ reason: '', message: 'x'.repeat(REPORT_MESSAGE_MAX + 1) }))).toBe('reason');
  });

  it('takes words up to the limit, not beyond, counting them trimmed', () => {
    expect(reportProblem(draft({ message: 'x'.repeat(REPORT_MESSAGE_MAX) }))).toBeNull();
    expect(reportProblem(draft({ message: `  ${'x'.repeat(REPORT_MESSAGE_MAX)}\n` }))).toBeNull();
    expect(reportProblem(draft({ message: 'x'.repeat(REPORT_MESSAGE_MAX + 1) }))).toBe('long');
  });
});

describe('reportBody', () => {
  it('sends only the share and the reason when nothing else was given', () => {
    expect(reportBody({ ...draft(), reason: 'spam', message: '   ' })).toEqual({ share_id: 's1', reason: 'spam' });
  });

  it('carries the pass code token, the item and the trimmed words', () => {
    expect(reportBody({ ...draft({ token: '123.abc', fileId: 'f9', message: ' My film.\n' }), reason: 'copyright' })).toEqual({
      share_id: 's1',
      reason: 'copyright',
      pass_code_token: '123.abc',
      file_id: 'f9',
      message: 'My film.',
    });
  });
});
