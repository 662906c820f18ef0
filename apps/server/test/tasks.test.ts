import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { contentHashOf } from '../src/storage/content-hash.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

describe('tasks', () => {
  let h: TestHaul;
  let t: TokenResponse;
  const clock = new ManualClock(Date.now());
  const ids: string[] = [];
  beforeAll(async () => {
    h = await startTestHaul({}, clock);
    t = await h.signUp();
    for (const name of ['a.bin', 'b.bin', 'c.bin']) {
      clock.advance(1000);
      const res = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size: 10, parent_id: '' });
      ids.push(res.body.task.id);
    }
  });
  afterAll(() => h.destroy());

  it('lists tasks newest first by type and phase, page by page', async () => {
    const filters = encodeURIComponent('{"phase":{"in":"PHASE_TYPE_PENDING,PHASE_TYPE_RUNNING,PHASE_TYPE_ERROR"}}');
    const p1 = await h.api('GET', `/drive/v1/tasks?type=upload&limit=2&filters=${filters}`, t.access_token);
    expect(p1.body.tasks.map((x: any) => x.name)).toEqual(['c.bin', 'b.bin']);
    expect(p1.body.tasks[0]).toMatchObject({ kind: 'drive#task', type: 'upload', phase: 'PHASE_TYPE_RUNNING', file_size: '10' });
    const p2 = await h.api('GET', `/drive/v1/tasks?type=upload&limit=2&filters=${filters}&page_token=${p1.body.next_page_token}`, t.access_token);
    expect(p2.body.tasks.map((x: any) => x.name)).toEqual(['a.bin']);
    expect(p2.body.next_page_token).toBe('');
    const done = await h.api('GET', `/drive/v1/tasks?type=upload&filters=${encodeURIComponent('{"phase":{"eq":"PHASE_TYPE_COMPLETE"}}')}`, t.access_token);
    expect(done.body.tasks).toEqual([]);
    const byId = await h.api('GET', `/drive/v1/tasks?filters=${encodeURIComponent(`{"id":{"in":"${ids[0]},${ids[2]}"}}`)}`, t.access_token);
    expect(byId.body.tasks.map((x: any) => x.id).sort()).toEqual([ids[0], ids[2]].sort());
  });

  it('keeps tasks private and refuses bad filters', async () => {
    const other = await h.signUp();
    expect((await h.api('GET', '/drive/v1/tasks?type=upload', other.access_token)).body.tasks).toEqual([]);
    expect((await h.api('GET', `/drive/v1/tasks/${ids[0]}`, other.access_token)).body.error).toBe('file_not_found');
    const del = await h.api('DELETE', `/drive/v1/tasks?task_ids=${ids[0]}`, other.access_token);
    expect(del.status).toBe(404);
    expect((await h.api('GET', `/drive/v1/tasks/${ids[0]}`, t.access_token)).status).toBe(200);
    const bad = await h.api('GET', `/drive/v1/tasks?filters=${encodeURIComponent('{"colour":{"eq":"red"}}')}`, t.access_token);
    expect(bad.status).toBe(400);
    expect((await h.api('GET', '/drive/v1/tasks?page_token=zzz', t.access_token)).status).toBe(400);
  });

  it('deletes several tasks at once, and with delete_files the file a finished task made', async () => {
    // A finished upload task: speed upload of content already stored (the proof of a small file is its hash).
    const stored = await h.putFile(t, '', 'stored.bin', 'same bytes');
    const ask = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'again.bin', size: stored.size, hash: stored.hash, parent_id: '' });
    const done = await h.api('POST', '/drive/v1/files', t.access_token, {
      kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'again.bin', size: stored.size, hash: stored.hash, parent_id: '',
      proof: { challenge: ask.body.proof_of_possession.challenge, answer: await contentHashOf('same bytes') },
    });
    expect(done.body.task.phase).toBe('PHASE_TYPE_COMPLETE');
    const del = await h.api('DELETE', `/drive/v1/tasks?task_ids=${ids[1]}&task_ids=${done.body.task.id}&delete_files=true`, t.access_token);
    expect(del.status).toBe(200);
    const left = await h.api('GET', '/drive/v1/tasks?type=upload', t.access_token);
    expect(left.body.tasks.map((x: any) => x.id).sort()).toEqual([ids[0], ids[2]].sort());
    expect((await h.api('GET', `/drive/v1/files/${done.body.file.id}`, t.access_token)).status).toBe(404);
    expect((await h.api('GET', `/drive/v1/files/${stored.id}`, t.access_token)).status).toBe(200);
    // The removed upload in flight let go of its upload row (its kind's release), not only of its task row.
    expect(await h.ctx.db.selectFrom('uploads').select('task_id').where('task_id', '=', ids[1]!).execute()).toEqual([]);
    expect((await h.ctx.db.selectFrom('uploads').select('task_id').where('task_id', '=', ids[0]!).execute()).length).toBe(1);
  });

  it('pauses and retries only the kinds of task that can, saying which kind cannot', async () => {
    const pause = await h.api('PATCH', `/drive/v1/tasks/${ids[0]}`, t.access_token, { phase: 'PHASE_TYPE_PAUSED' });
    expect(pause.status).toBe(400);
    expect(pause.body.error_description).toMatch(/type "upload" cannot be paused/);
    const retry = await h.api('POST', '/drive/v1/task', t.access_token, { id: ids[0], create_type: 'RETRY', type: 'offline' });
    expect(retry.status).toBe(400);
    expect(retry.body.error_description).toMatch(/type "upload" cannot be retried/);
  });

  it("answers a task's status history: the status it is in, newest first, for its owner only", async () => {
    const res = await h.api('GET', `/drive/v1/task/${ids[0]}/statuses?limit=5`, t.access_token);
    expect(res.status).toBe(200);
    const task = (await h.api('GET', `/drive/v1/tasks/${ids[0]}`, t.access_token)).body;
    expect(res.body.statuses).toEqual([{ phase: 'PHASE_TYPE_RUNNING', progress: task.progress, message: task.message, time: task.updated_time }]);
    // A finished upload (speed upload of stored content) answers its complete status.
    const stored = await h.putFile(t, '', 'history.bin', 'history bytes');
    const ask = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'history-again.bin', size: stored.size, hash: stored.hash, parent_id: '' });
    const done = await h.api('POST', '/drive/v1/files', t.access_token, {
      kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'history-again.bin', size: stored.size, hash: stored.hash, parent_id: '',
      proof: { challenge: ask.body.proof_of_possession.challenge, answer: await contentHashOf('history bytes') },
    });
    const finished = await h.api('GET', `/drive/v1/task/${done.body.task.id}/statuses`, t.access_token);
    expect(finished.body.statuses).toHaveLength(1);
    expect(finished.body.statuses[0]).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100, message: '' });
    const other = await h.signUp();
    const theirs = await h.api('GET', `/drive/v1/task/${ids[0]}/statuses`, other.access_token);
    expect([theirs.status, theirs.body.error]).toEqual([404, 'file_not_found']);
    expect((await h.api('GET', '/drive/v1/task/nope/statuses', t.access_token)).status).toBe(404);
    expect((await h.api('GET', `/drive/v1/task/${ids[0]}/statuses?limit=0`, t.access_token)).status).toBe(400);
  });
});
