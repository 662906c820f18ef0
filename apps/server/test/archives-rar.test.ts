/** RAR 4 and 5 (solid, encrypted entries, encrypted headers): listed and unpacked with the right bytes. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { decompress, drivedTree, list, settle, upload, Z7 } from './archive-tools.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'archives');
const EXE = '8557928804f57ecc340b3bb38b095a3607474ec8deb0076f316fcfe02b562106';
const JPG = 'b251c7501fb0f55dd4a92feabe0a6f5733bc40a02679498155fae9b30138fc53';
const TXT = '4d581d93d369f6e1c9b295ff38d82dabd577f927dfaf0c35818c015c85e322d9';
const THREE = { 'exe/test.exe': EXE, 'jpg/test.jpg': JPG, 'тест.txt': TXT };

/** Each fixture, its password, and the SHA-256 of every file entry (from the fixtures' README). */
const CASES: { file: string; password?: string; headers?: boolean; files: Record<string, string> }[] = [
  { file: 'Rar4.rar', files: THREE },
  { file: 'Rar5.rar', files: THREE },
  { file: 'Rar5.solid.rar', files: THREE },
  { file: 'Rar.encrypted_filesOnly.rar', password: 'test', files: THREE },
  { file: 'Rar5.encrypted_filesOnly.rar', password: 'test', files: THREE },
  { file: 'Rar5.encrypted_filesAndHeader.rar', password: 'test', headers: true, files: THREE },
  {
    file: 'HeaderEnc1234.rar',
    password: '1234',
    headers: true,
    files: {
      '1File.txt': '388fa8a4003196ef6952f57c5ba788c33add726bd079ea36f62a49f374015794',
      '2中文.txt': '9ffef4badf45b4f9132ce26974bc3979e896b4eabedecb883defe85643b9037d',
    },
  },
  {
    file: 'FolderTest.rar',
    files: {
      'Folder1/Folder Space/long.txt': '2640f17241bd2cf164b2d1c844e22d70f4aaf68c94ac7eb124c8c0b17549ea26',
      'Folder1/Folder 中文/2中文.txt': '9ffef4badf45b4f9132ce26974bc3979e896b4eabedecb883defe85643b9037d',
    },
  },
];

describe('RAR archives', () => {
  let h: TestHaul;
  let t: TokenResponse;
  beforeAll(async () => {
    Z7();
    h = await startTestHaul();
    h.archives.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  for (const c of CASES) {
    it(`${c.file}: lists and unpacks every entry with its SHA-256`, async () => {
      const id = await upload(h, t, c.file, readFileSync(join(FIXTURES, c.file)));
      const listed = await list(h, t.access_token, id, c.headers ? { password: c.password } : {});
      expect(listed.status).toBe(200);
      expect(listed.body.encrypted_headers).toBe(!!c.headers);
      const files = listed.body.files.filter((f: any) => f.kind === 'drive#file').map((f: any) => f.path.normalize('NFC'));
      expect(files.sort()).toEqual(Object.keys(c.files).sort());
      expect(listed.body.has_encrypted).toBe(!!c.password);
      if (c.password) {
        const none = await decompress(h, t.access_token, id);
        expect(none.status).toBe(400);
        expect(none.body.error).toBe('archive_password_wrong');
      }
      const res = await decompress(h, t.access_token, id, c.password ? { password: c.password } : {});
      expect(res.status).toBe(200);
      const end = await settle(h, t.access_token, res.body.task.id);
      expect(end.task.phase).toBe('PHASE_TYPE_COMPLETE');
      expect(await drivedTree(h, t.sub, end.task.file_id)).toEqual(c.files);
      const folder = await h.api('GET', `/drive/v1/files/${end.task.file_id}`, t.access_token);
      expect(folder.body.name).toBe(c.file.replace(/\.rar$/, ''));
    });
  }

  it('refuses a wrong password for encrypted headers when listing, and for encrypted entries when unpacking', async () => {
    const headers = await upload(h, t, 'h.rar', readFileSync(join(FIXTURES, 'Rar5.encrypted_filesAndHeader.rar')));
    for (const body of [{}, { password: 'nope' }]) {
      const res = await list(h, t.access_token, headers, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('archive_password_wrong');
    }
    const entries = await upload(h, t, 'e.rar', readFileSync(join(FIXTURES, 'Rar5.encrypted_filesOnly.rar')));
    const wrong = await decompress(h, t.access_token, entries, { password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('archive_password_wrong');
    const tasks = await h.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', t.sub).where('type', '=', 'decompress').where('phase', '!=', 'PHASE_TYPE_COMPLETE').execute();
    expect(tasks).toEqual([]);
  });

  it('unpacks only the entries chosen, a folder taking what is under it', async () => {
    const id = await upload(h, t, 'pick.rar', readFileSync(join(FIXTURES, 'Rar5.rar')));
    const res = await decompress(h, t.access_token, id, { paths: ['jpg', 'тест.txt'] });
    expect(res.status).toBe(200);
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(await drivedTree(h, t.sub, end.task.file_id)).toEqual({ 'jpg/test.jpg': JPG, 'тест.txt': TXT });
    expect(end.done_entries).toBe(2);
  });
});
