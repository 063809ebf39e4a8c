import { facaApi, mediaPaths } from '@linewatch/contracts/faca-api';
import type { MediaRef } from '@linewatch/contracts/faca';
import { facaMessages, MEDIA_LIMITS } from '@linewatch/contracts/faca-labels';
import type { Envelope } from '@linewatch/contracts/envelope';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, login } from '../test/http.ts';
import { factories, type TestUser } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

// Uploads a form never used, and staging files a killed server left, were kept for good; and a
// user could upload without end. A job (once across instances) deletes them; a quota bounds
// what one user may hold unattached.

const HOUR = 3_600_000;
let server: TestServer;
let dataDir: string;
let user: TestUser;
let keyId: string;
let sn: string;
let png: Buffer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lw-media-cleanup-'));
  server = await startTestServer({ DATA_DIR: dataDir });
  const make = factories(server.linewatch);
  const line = await make.createLine();
  sn = await make.createDevice({ line });
  user = await make.createUser({ lines: [line] });
  keyId = await login(server.baseUrl, user.psnCode, user.password);
  const db = server.linewatch.database.db;
  await db.insertInto('faca_workmanships').values({ name: '焊接' }).execute();
  await db.insertInto('faca_influence_parameters').values({ name: '温度' }).execute();
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const upload = async () => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)]), 'p.png');
  const response = await fetch(`${server.baseUrl}${mediaPaths.upload}?type=pic`, {
    method: 'POST',
    headers: { [KEY_ID_HEADER]: keyId },
    body: form,
  });
  return (await response.json()) as Envelope<MediaRef[]>;
};
const uploaded = async () => (await upload()).data[0]!;
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
    const files = readdirSync(join(dataDir, 'media', 'files', abandoned.id.slice(0, 2)));
    expect(files.filter((f) => f.startsWith(abandoned.id))).toEqual([]);
  });

  it('deletes the files of a question that is gone (its machine was deleted)', async () => {
    const pic = await uploaded();
    const id = (await question([pic.id])).body.data.id;
    await server.linewatch.database.db.deleteFrom('faca_questions').where('id', '=', id).execute();
    await server.linewatch.app.media.cleanUp();
    expect(await status(pic)).toBe(404);
  });
});

describe('the upload quota', () => {
  it('refuses more unattached uploads than the quota, with the reason; attaching frees it', async () => {
    const db = server.linewatch.database.db;
    // What earlier uploads left unattached, as one row: uploading 200 MB here would be slow.
    await db
      .insertInto('media')
      .values({
        id: 'f'.repeat(32),
        kind: 'video',
        mime: 'video/mp4',
        ext: 'mp4',
        size: MEDIA_LIMITS.unattachedBytesPerUser,
        owner_id: user.id,
      })
      .execute();
    const refused = await upload();
    expect(refused).toMatchObject({ code: '0410', msg: facaMessages.uploadQuota });
    const { id } = (await question([])).body.data;
    await db.updateTable('media').set({ faca_id: id }).where('id', '=', 'f'.repeat(32)).execute();
    expect((await upload()).code).toBe('0000');
  });
});
