import { facaApi, mediaPaths } from '@linewatch/contracts/faca-api';
import { type MediaRef } from '@linewatch/contracts/faca';
import { facaMessages, MEDIA_LIMITS } from '@linewatch/contracts/faca-labels';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import type { Envelope } from '@linewatch/contracts/envelope';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, login } from '../test/http.ts';
import { factories } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let dataDir: string;
let keyId: string;
let userId: number;
let outsiderKey: string;
let sn: string;
let png: Buffer;
let gif: Buffer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lw-media-test-'));
  server = await startTestServer({ DATA_DIR: dataDir });
  const make = factories(server.linewatch);
  const line = await make.createLine();
  const otherLine = await make.createLine();
  sn = await make.createDevice({ line });
  const user = await make.createUser({ lines: [line] });
  const other = await make.createUser({ lines: [otherLine] });
  keyId = await login(server.baseUrl, user.psnCode, user.password);
  userId = user.id;
  outsiderKey = await login(server.baseUrl, other.psnCode, other.password);
  const db = server.linewatch.database.db;
  await db.insertInto('faca_workmanships').values({ name: '焊接' }).execute();
  await db.insertInto('faca_influence_parameters').values({ name: '温度' }).execute();
  const canvas = { width: 32, height: 24, channels: 3 as const, background: '#3b82f6' };
  png = await sharp({ create: canvas }).png().toBuffer();
  gif = await sharp({ create: canvas }).gif().toBuffer();
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Part = { name: string; bytes: Uint8Array };

const upload = async (type: string, parts: Part[], key = keyId) => {
  const form = new FormData();
  for (const p of parts) form.append('file', new Blob([new Uint8Array(p.bytes)]), p.name);
  const response = await fetch(`${server.baseUrl}${mediaPaths.upload}?type=${type}`, {
    method: 'POST',
    headers: { [KEY_ID_HEADER]: key },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Envelope<MediaRef[]> };
};

/** Every file under DATA_DIR/media (stored and staged) and every media row. */
const stored = async () => {
  const root = join(dataDir, 'media');
  const files: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else files.push(e.name);
    }
  };
  walk(root);
  const rows = await server.linewatch.database.db.selectFrom('media').select('id').execute();
  return { files: files.length, rows: rows.length };
};

const mp4 = () => {
  const bytes = Buffer.alloc(4096);
  Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex').copy(bytes);
  return bytes;
};

describe('uploads', () => {
  it('stores pictures and a video under generated names, with thumbnails, served safely', async () => {
    const reply = await upload('pic', [
      { name: 'a.png', bytes: png },
      { name: '现场.GIF', bytes: gif },
    ]);
    expect(reply.status).toBe(200);
    const [first] = reply.body.data;
    expect(first!.id).toMatch(/^[0-9a-f]{32}$/);
    const hd = await fetch(server.baseUrl + first!.url, { headers: { [KEY_ID_HEADER]: keyId } });
    expect(hd.status).toBe(200);
    expect(hd.headers.get('content-type')).toBe('image/png');
    expect(hd.headers.get('x-content-type-options')).toBe('nosniff');
    expect(hd.headers.get('content-disposition')).toBe(`inline; filename="${first!.id}.png"`);
    expect(hd.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await hd.arrayBuffer()).equals(png)).toBe(true);
    const thumb = await fetch(server.baseUrl + first!.thumbUrl!, {
      headers: { [KEY_ID_HEADER]: keyId },
    });
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');

    const video = await upload('video', [{ name: 'line.mp4', bytes: mp4() }]);
    expect(video.status).toBe(200);
    const served = await fetch(server.baseUrl + video.body.data[0]!.url, {
      headers: { [KEY_ID_HEADER]: keyId },
    });
    expect(served.headers.get('content-type')).toBe('video/mp4');
  });

  it('shows an attached picture to the lines of its question and to no one else', async () => {
    const [pic] = (await upload('pic', [{ name: 'p.png', bytes: png }])).body.data;
    const me = api(server.baseUrl, keyId);
    const url = server.baseUrl + pic!.url;
    expect((await fetch(url, { headers: { [KEY_ID_HEADER]: outsiderKey } })).status).toBe(403);
    // Someone else cannot attach my upload to their question either.
    const saved = await me.post<{ id: number }>(facaApi.addOrUpdateFacaInfo.path, {
      snCode: sn,
      workmanship: '焊接',
      count: 1,
      warningContent: '报警',
      facaDescription: '描述',
      influenceParameters: '温度',
      facaPicIds: [pic!.id],
    });
    expect(saved.body.code).toBe('0000');
    const question = await me.get<{ picList: MediaRef[] }>(facaApi.getFacaById.path, {
      facaInfoId: saved.body.data.id,
    });
    expect(question.body.data.picList.map((p) => p.id)).toEqual([pic!.id]);
    expect((await fetch(url, { headers: { [KEY_ID_HEADER]: outsiderKey } })).status).toBe(403);
    expect((await fetch(url, { headers: { [KEY_ID_HEADER]: keyId } })).status).toBe(200);
  });

  const elf = Buffer.concat([
    Buffer.from('7f454c46020101000000000000000000', 'hex'),
    Buffer.alloc(512),
  ]);
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  it.each([
    [
      'a picture of 10 MB + 1 byte',
      'pic',
      () => [
        {
          name: 'big.png',
          bytes: Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]),
        },
      ],
      413,
      facaMessages.pictureTooLarge,
    ],
    [
      'a video of 10 MB + 1 byte',
      'video',
      () => [
        {
          name: 'big.mp4',
          bytes: Buffer.concat([mp4(), Buffer.alloc(10 * 1024 * 1024 + 1 - 4096)]),
        },
      ],
      413,
      facaMessages.videoTooLarge,
    ],
    [
      'a 10th picture',
      'pic',
      () => Array.from({ length: 10 }, (_, i) => ({ name: `${i}.png`, bytes: png })),
      400,
      facaMessages.tooManyPictures,
    ],
    [
      'a 10th video',
      'video',
      () => Array.from({ length: 10 }, (_, i) => ({ name: `${i}.mp4`, bytes: mp4() })),
      400,
      facaMessages.tooManyVideos,
    ],
    [
      'a GIF that is also a script (polyglot)',
      'pic',
      () => [
        {
          name: 'x.gif',
          bytes: Buffer.concat([gif, Buffer.from('<script>alert(document.cookie)</script>')]),
        },
      ],
      400,
      facaMessages.onlyPictures,
    ],
    ['an SVG', 'pic', () => [{ name: 'x.svg', bytes: svg }], 400, facaMessages.onlyPictures],
    [
      'an SVG named .png',
      'pic',
      () => [{ name: 'x.png', bytes: svg }],
      400,
      facaMessages.onlyPictures,
    ],
    [
      'an executable named .jpg',
      'pic',
      () => [{ name: 'photo.jpg', bytes: elf }],
      400,
      facaMessages.onlyPictures,
    ],
    [
      'an executable named .mp4',
      'video',
      () => [{ name: 'clip.mp4', bytes: elf }],
      400,
      facaMessages.onlyVideos,
    ],
    [
      'a picture sent as a video',
      'video',
      () => [{ name: 'a.mp4', bytes: png }],
      400,
      facaMessages.onlyVideos,
    ],
    [
      'a .exe extension',
      'pic',
      () => [{ name: 'a.exe', bytes: png }],
      400,
      facaMessages.onlyPictures,
    ],
    [
      'a ../ name',
      'pic',
      () => [{ name: '../../etc/a.png', bytes: png }],
      400,
      facaMessages.badFileName,
    ],
    [
      'a good picture beside a bad one',
      'pic',
      () => [
        { name: 'ok.png', bytes: png },
        { name: 'bad.jpg', bytes: elf },
      ],
      400,
      facaMessages.onlyPictures,
    ],
    ['nothing', 'pic', () => [], 400, facaMessages.noFile],
  ] as const)('refuses %s and stores nothing', async (_name, type, parts, status, message) => {
    const before = await stored();
    const reply = await upload(type, parts());
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ code: '0400', msg: message });
    expect(await stored()).toEqual(before);
  });

  it('needs a signed-in user', async () => {
    const reply = await upload('pic', [{ name: 'a.png', bytes: png }], 'not-a-key');
    expect(reply.status).toBe(401);
  });
});

// Uploads a form never saved, and staging files a killed server left, were kept for good; and a
// user could upload without end (issue 23). A job (once across instances) deletes them; a quota
// bounds what one user may hold unsaved.

const HOUR = 3_600_000;
const uploaded = async () => (await upload('pic', [{ name: 'p.png', bytes: png }])).body.data[0]!;
const status = async (pic: MediaRef) =>
  (await fetch(server.baseUrl + pic.url, { headers: { [KEY_ID_HEADER]: keyId } })).status;
const backdate = (ids: string[], ms: number) =>
  server.linewatch.database.db
    .updateTable('media')
    .set({ created_at: new Date(Date.now() - ms) })
    .where('id', 'in', ids)
    .execute();
const question = (facaPicIds: string[]) =>
  api(server.baseUrl, keyId).post<{ id: number }>(facaApi.addOrUpdateFacaInfo.path, {
    snCode: sn,
    workmanship: '焊接',
    count: 1,
    warningContent: '报警',
    facaDescription: '描述',
    influenceParameters: '温度',
    facaPicIds,
  });

describe('the uploads cleanup', () => {
  it('runs as a job once across instances', async () => {
    await vi.waitFor(async () => {
      const run = await server.linewatch.database.db
        .selectFrom('job_runs')
        .select('name')
        .where('name', '=', 'media.cleanup')
        .executeTakeFirst();
      expect(run).toBeDefined();
    });
  });

  it('deletes uploads never attached after a day and staging files left behind; keeps the rest', async () => {
    const [abandoned, attached, fresh] = [await uploaded(), await uploaded(), await uploaded()];
    expect((await question([attached.id])).body.code).toBe('0000');
    await backdate([abandoned.id, attached.id], 25 * HOUR);
    const staging = join(dataDir, 'media', 'tmp');
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'left-by-a-kill'), 'partial upload');
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    utimesSync(join(staging, 'left-by-a-kill'), twoHoursAgo, twoHoursAgo);
    writeFileSync(join(staging, 'in-progress'), 'upload being received');

    await server.linewatch.app.media.cleanUp();

    expect(await status(abandoned)).toBe(404);
    expect(await status(attached)).toBe(200);
    expect(await status(fresh)).toBe(200);
    expect(readdirSync(staging)).toEqual(['in-progress']);
    rmSync(join(staging, 'in-progress'));
    const files = readdirSync(join(dataDir, 'media', 'files', abandoned.id.slice(0, 2)));
    expect(files.filter((f) => f.startsWith(abandoned.id))).toEqual([]);
  });

  it('deletes the files of a question that is gone (its machine was deleted)', async () => {
    const pic = await uploaded();
    const { id } = (await question([pic.id])).body.data;
    await server.linewatch.database.db.deleteFrom('faca_questions').where('id', '=', id).execute();
    await server.linewatch.app.media.cleanUp();
    expect(await status(pic)).toBe(404);
  });
});

describe('the upload quota', () => {
  it('refuses more unsaved uploads than the quota, with the reason; saving them frees it', async () => {
    const db = server.linewatch.database.db;
    // What earlier uploads left unsaved, as one row: uploading 200 MB here would be slow.
    await db
      .insertInto('media')
      .values({
        id: 'f'.repeat(32),
        kind: 'video',
        mime: 'video/mp4',
        ext: 'mp4',
        size: MEDIA_LIMITS.unattachedBytesPerUser,
        owner_id: userId,
      })
      .execute();
    const refused = await upload('pic', [{ name: 'p.png', bytes: png }]);
    expect(refused.body).toMatchObject({ code: '0410', msg: facaMessages.uploadQuota });
    const { id } = (await question([])).body.data;
    await db.updateTable('media').set({ faca_id: id }).where('id', '=', 'f'.repeat(32)).execute();
    expect((await upload('pic', [{ name: 'p.png', bytes: png }])).body.code).toBe('0000');
  });
});
