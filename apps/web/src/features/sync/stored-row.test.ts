import { PHASE } from '@haul/shared/plain';
import { describe, expect, it } from 'vitest';
import { listedFile } from './fake-drive';
import type { LocalFile } from './stored-row';
import { fromStored, toStored } from './stored-row';

const listed: LocalFile = { ...listedFile({ id: 'f1', parent_id: '' }), local_sync_timestamp: 5 };

describe('the stored row', () => {
  it('leaves out the fields at their usual value and gets the same row back', () => {
    const stored = toStored(listed);
    for (const field of ['star', 'icon_link', 'web_content_link', 'tags', 'params', 'sensitive', 'audit', 'phase', 'trashed', 'delete_time'])
      expect(stored).not.toHaveProperty(field);
    expect(stored).toMatchObject({ id: 'f1', parent_id: '', size: '10', local_sync_timestamp: 5 });
    expect(fromStored(structuredClone(stored))).toEqual(listed);
  });

  it('keeps every field that differs from its usual value', () => {
    const unusual: LocalFile = {
      ...listed,
      star: 1,
      icon_link: '/i',
      web_content_link: '/d',
      tags: [{ id: 't', name: 'STAR', type: 0 }] as unknown as LocalFile['tags'],
      params: { platform: 'Upload' },
      sensitive: 1,
      audit: { status: 'STATUS_SENSITIVE_RESOURCE', message: 'sensitive resource', title: '' },
      phase: PHASE.RUNNING,
      trashed: true,
      delete_time: '2026-02-01T00:00:00.000Z',
    };
    const stored = toStored(unusual);
    expect(Object.keys(stored).sort()).toEqual(Object.keys(unusual).sort());
    expect(fromStored(structuredClone(stored))).toEqual(unusual);
    // An empty audit object is not the usual null: it stays as it is.
    expect(fromStored(structuredClone(toStored({ ...listed, audit: {} as LocalFile['audit'] })))).toHaveProperty('audit', {});
  });
});
