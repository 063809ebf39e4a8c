import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGatewayAgent } from '../test/gateway.ts';
import { factories } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { waitFor } from '../test/wait.ts';

/*
 * A machine in the agent's config that is not bound to its gateway: the server drops its data
 * (it must: a binding is what makes a gateway's readings a machine's). It used to do so without a
 * word while `unknownMachine` climbed into the hundreds. Now both sides say it once per machine,
 * with what to do.
 */
describe('machines the agent polls but the server has not bound to it', () => {
  let server: TestServer;
  const serverLog: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({}, { log: (line) => serverLog.push(line) });
  });
  afterAll(() => server?.close());

  it('are named once by the server and once by the agent, with what to do', async () => {
    const make = factories(server.linewatch);
    const gateway = await make.createGateway();
    const line = await make.createLine();
    const registered = await make.createDevice({ line });
    const bound = await make.createDevice({ line, gateway });
    const stranger = `NOSUCH-${gateway.id}`;
    const agent = runGatewayAgent({
      mqttUrl: server.mqttUrl,
      gateways: [{ ...gateway, machines: [{ sn: bound }, { sn: registered }, { sn: stranger }] }],
    });
    try {
      const { ingestor } = server.linewatch;
      const dropped = ingestor.counters.unknownMachine;
      // Many polls later, each has been dropped again and again ...
      await waitFor(() => ingestor.counters.unknownMachine >= dropped + 20, {
        timeout: 30_000,
        what: 'readings of unbound machines dropped',
      });
      const agentSays = (sn: string) =>
        `${agent.stdout()}\n${agent.stderr()}`.split('\n').filter((l) => l.includes(sn));
      await waitFor(() => agentSays(registered).length > 0 && agentSays(stranger).length > 0, {
        timeout: 30_000,
        what: 'the agent naming both machines',
      });
      const serverSays = (sn: string) => serverLog.filter((l) => l.includes(sn));

      // ... and each is named once on each side, with the gateway and what to do.
      expect(serverSays(registered)).toHaveLength(1);
      expect(serverSays(registered)[0]).toContain(gateway.id);
      expect(serverSays(registered)[0]).toContain('个人中心 → 绑定机台');
      expect(serverSays(stranger)).toHaveLength(1);
      expect(serverSays(stranger)[0]).toContain('机台管理');
      expect(serverSays(bound)).toEqual([]);

      expect(agentSays(registered)).toHaveLength(1);
      expect(agentSays(registered)[0]).toContain('个人中心 → 绑定机台');
      expect(agentSays(stranger)).toHaveLength(1);
      expect(agentSays(stranger)[0]).toContain('机台管理');
      expect(agentSays(bound).filter((l) => /not bound|未绑定/.test(l))).toEqual([]);
    } finally {
      await agent.dispose();
    }
  });
});
