import type { FailureCase } from '@linewatch/contracts/cases';
import { caseMessages } from '@linewatch/contracts/cases';
import { casesApi } from '@linewatch/contracts/cases-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '../test/factories.ts';
import { api } from '../test/http.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('failure cases', () => {
  it('has a case for each demo alarm code, readable without signing in, and only the case', async () => {
    const anonymous = api(server.baseUrl);
    for (const code of ['E101', 'E205', 'E307', 'E412', 'E518']) {
      const id = await server.linewatch.app.cases.caseIdOf(code);
      expect(id, code).not.toBeNull();
      const reply = await anonymous.get<FailureCase>(casesApi.failureCase.path, { casesId: id! });
      expect(reply.status, reply.text).toBe(200);
      expect(Object.keys(reply.body.data).sort()).toEqual(
        ['description', 'deviceName', 'id', 'shootings', 'snCode', 'warningCode'].sort(),
      );
      expect(reply.body.data.warningCode).toBe(code);
      expect(reply.body.data.description).not.toBe('');
      expect(reply.body.data.shootings[0]!.steps.length).toBeGreaterThan(0);
    }
    expect(await server.linewatch.app.cases.caseIdOf('E999')).toBeNull();
  });

  it("names the case's own machine's device, from the machine, not a fixed name", async () => {
    // Migration 009's E101 case is LW-S1-002's, which the demo names 回流焊炉01 (it said 贴片机).
    const make = factories(server.linewatch);
    await make.createDevice({
      line: await make.createLine(),
      sn: 'LW-S1-002',
      deviceName: '回流焊炉01',
    });
    const id = await server.linewatch.app.cases.caseIdOf('E101');
    const reply = await api(server.baseUrl).get<FailureCase>(casesApi.failureCase.path, {
      casesId: id!,
    });
    expect(reply.body.data).toMatchObject({
      snCode: 'LW-S1-002',
      deviceName: '回流焊炉01',
      warningCode: 'E101',
      description: '送料超时',
    });
  });

  it.each([
    [{ casesId: 'abc' }, 400, caseMessages.badCasesId],
    [{ casesId: '0' }, 400, caseMessages.badCasesId],
    [{}, 400, caseMessages.badCasesId],
    [{ casesId: '99999' }, 404, caseMessages.notFound],
  ])('answers %j with %i %s', async (query, status, msg) => {
    const reply = await api(server.baseUrl).get(casesApi.failureCase.path, query);
    expect(reply.status).toBe(status);
    expect(reply.body.msg).toBe(msg);
  });
});
