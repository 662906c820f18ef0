/**
 * What the server carries at rest. Started as `npm start` starts it, it has not loaded libvips (sharp, ~25 MB
 * resident): that comes with the first picture it reads, and the thumbnail is then made as before.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { crashTestEnv, database, HaulProcess, until } from './child-server.js';

const work = mkdtempSync(join(tmpdir(), 'haul-at-rest-'));
let origin: Server;
let originBase = '';
let haul: HaulProcess;
let drop: () => Promise<void> = async () => undefined;

/** Whether the server process has libvips mapped. */
const libvipsLoaded = () => readFileSync(`/proc/${haul.child!.pid}/maps`, 'utf8').includes('libvips');

beforeAll(async () => {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
  origin = createServer((req, res) => void res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(req.method === 'HEAD' ? undefined : png));
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  originBase = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  const db = await database();
  drop = db.drop;
  haul = new HaulProcess(await freeLoopbackPort(), crashTestEnv(join(work, 'data'), db));
  await haul.start();
}, 90_000);

afterAll(async () => {
  if (haul?.child) await haul.crash();
  origin?.closeAllConnections();
  await new Promise((r) => origin?.close(r));
  await drop();
  rmSync(work, { recursive: true, force: true });
});

describe('the server at rest', () => {
  it('has not loaded libvips until a picture is read, then makes its thumbnail', async () => {
    const { access_token: token } = await haul.call('POST', '/v1/auth/signup', undefined, { email: 'rest@example.com', password: 'correct horse' });
    await haul.call('GET', '/drive/v1/files?parent_id=', token);
    expect(libvipsLoaded()).toBe(false);

    const created = await haul.call('POST', '/drive/v1/files', token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `${originBase}/red.png` }, parent_id: '' });
    const task = await until(() => haul.call('GET', `/drive/v1/tasks/${created.task.id}`, token), (t) => t.phase === 'PHASE_TYPE_COMPLETE' || t.phase === 'PHASE_TYPE_ERROR');
    expect(task.phase, task.message).toBe('PHASE_TYPE_COMPLETE');
    const file = await haul.call('GET', `/drive/v1/files/${task.file_id}?thumbnail_size=SIZE_SMALL`, token);
    const thumb = await fetch(new URL(file.thumbnail_link, haul.base));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBeGreaterThan(0);
    expect(libvipsLoaded()).toBe(true);
  });
});
