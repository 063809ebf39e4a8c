import fs from 'node:fs';
import path from 'node:path';
import { modbusProfiles } from '@linewatch/contracts/plc-profiles';
import { topicOf } from '@linewatch/contracts/mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../agent.ts';
import { machineConfig, parseConfig, type MachineConfig } from '../config.ts';
import { Machines } from './machines.ts';
import { startSimulatedPlc } from '../plc-sim/simulated-plc.ts';
import {
  FakeIngest,
  onCleanup,
  runCleanups,
  startBroker,
  subscriber,
  tempDir,
  waitFor,
} from '../testing.ts';

afterEach(runCleanups);

const GATEWAY = 'LWGWBIND0001';
const SN = 'SN-BIND-1';

describe('bind and unbind on the agent', () => {
  it('polls a bound PLC at once, keeps polling it after a restart, stops on unbind', async () => {
    const broker = await startBroker();
    const ingest = new FakeIngest(GATEWAY, true);
    ingest.attach(broker.broker);
    const plc = await startSimulatedPlc({
      host: '127.0.0.1',
      port: 0,
      profile: modbusProfiles['S7-1200']!,
      machine: { sn: SN, ppmTarget: 600, faultRate: 0, resetRate: 0, timeScale: 60 },
    });
    onCleanup(() => plc.close());
    const watcher = await subscriber(broker.url, [
      topicOf(GATEWAY, 'cmd/reply'),
      topicOf(GATEWAY, 'state'),
    ]);
    const bufferDir = tempDir();
    const start = async () => {
      const config = parseConfig({
        brokerUrl: broker.url,
        pollIntervalMs: 50,
        reconnectMinMs: 50,
        reconnectMaxMs: 300,
        modbusPort: plc.port,
        gateways: [{ id: GATEWAY, password: 'pw', bufferDir, machines: [] }],
      });
      const agent = await startGateway(config.gateways[0]!, config);
      onCleanup(() => agent.stop());
      return agent;
    };
    const command = (body: Record<string, unknown>) =>
      broker.broker.publish(
        {
          cmd: 'publish',
          topic: topicOf(GATEWAY, 'cmd'),
          payload: JSON.stringify(body),
          qos: 1,
          retain: false,
          dup: false,
        },
        () => undefined,
      );
    const replyTo = (correlationId: string) =>
      waitFor(
        () =>
          watcher.messages.find(
            (m) => (m.body as { correlationId?: string }).correlationId === correlationId,
          )?.body,
        `the reply to ${correlationId}`,
      );
    const readingsOf = () =>
      ingest.accepted.flatMap((r) =>
        r.kind === 'telemetry' ? r.message.readings.filter((x) => x.sn === SN) : [],
      );

    const first = await start();
    await waitFor(() => first.stats().connected, 'connected');
    command({
      type: 'bind',
      correlationId: 'bind-000000001',
      snCode: SN,
      plcIp: '127.0.0.1',
      iotIp: '192.168.1.2,10.0.0.2',
      plcModel: 'S7-1200',
    });
    expect(await replyTo('bind-000000001')).toEqual({
      correlationId: 'bind-000000001',
      code: 200,
      content: '绑定成功',
    });
    await waitFor(() => readingsOf().length > 0, 'a reading of the bound PLC');
    await first.stop();

    // A restart polls what was bound, without the config file naming it.
    const countBefore = readingsOf().length;
    await start();
    await waitFor(() => readingsOf().length > countBefore, 'readings after the restart');
    const seqs = ingest.accepted.map((r) => r.message.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));

    command({ type: 'unbind', correlationId: 'unbind-00000001', snCode: SN });
    expect(await replyTo('unbind-00000001')).toMatchObject({ code: 200, content: '解绑成功' });
    // The retained state lists no machine any more.
    await waitFor(
      () =>
        watcher.messages.some(
          (m) =>
            m.topic === topicOf(GATEWAY, 'state') &&
            (m.body as { machines?: string[] }).machines?.length === 0,
        ),
      'the state without the machine',
    );
  });
});

/** The machines of a gateway whose buffer is `bufferDir`, closed after the test. */
const machinesOf = (bufferDir: string, configured: MachineConfig[]) => {
  const config = parseConfig({
    brokerUrl: 'mqtt://127.0.0.1:1',
    gateways: [{ id: GATEWAY, password: 'pw', bufferDir, machines: [] }],
  });
  const machines = new Machines({
    gatewayId: GATEWAY,
    bufferDir,
    configured,
    settings: config,
    log: { info: () => undefined, warn: () => undefined },
    quiesce: async () => undefined,
    onChange: () => undefined,
  });
  onCleanup(() => machines.close());
  return machines;
};

describe('a bind of a model read over S7 or OPC UA', () => {
  it('polls it with its protocol’s driver at the profile’s port, and keeps that', async () => {
    const bufferDir = tempDir();
    const machines = machinesOf(bufferDir, []);
    const bind = (snCode: string, plcModel: string) =>
      machines.bind({
        type: 'bind',
        snCode,
        plcIp: '10.0.0.9',
        iotIp: '10.0.0.2',
        plcModel,
        correlationId: 'c',
      });
    expect(await bind('SN-S7-1', 'S7-1200-S7')).toEqual({ code: 200, content: '绑定成功' });
    expect(await bind('SN-UA-1', 'OPCUA-LW')).toEqual({ code: 200, content: '绑定成功' });
    expect(machines.drivers().map((d) => d.constructor.name)).toEqual(['S7Driver', 'OpcuaDriver']);
    const saved = JSON.parse(fs.readFileSync(path.join(bufferDir, 'machines.json'), 'utf8')) as {
      bound: unknown[];
    };
    expect(saved.bound).toMatchObject([
      { driver: 's7', sn: 'SN-S7-1', plcIp: '10.0.0.9', plcModel: 'S7-1200-S7' },
      { driver: 'opcua', sn: 'SN-UA-1', securityMode: 'None', subscribe: true },
    ]);
  });
});

describe('a restart after binds and unbinds from the phone', () => {
  const configuredAt = (sn: string, port: number) =>
    machineConfig.parse({ driver: 'modbus', sn, plcIp: '127.0.0.1', port, plcModel: 'FX5U' });

  it('polls the configured machines at the address the config file gives now', async () => {
    // The demo: its gateways' machines are simulated PLCs whose ports change at every start.
    const bufferDir = tempDir();
    const first = machinesOf(bufferDir, [configuredAt('SN-A', 41001), configuredAt('SN-B', 41002)]);
    const bind = await first.bind({
      type: 'bind',
      snCode: 'SN-C',
      plcIp: '127.0.0.1',
      plcPort: 41500,
      iotIp: '10.0.0.2',
      plcModel: 'FX5U',
      correlationId: 'c',
    });
    expect(bind.code).toBe(200);
    expect((await first.unbind('SN-B')).code).toBe(200);
    await first.close();

    const restarted = machinesOf(bufferDir, [
      configuredAt('SN-A', 42001),
      configuredAt('SN-B', 42002),
    ]);
    expect(restarted.sns().sort()).toEqual(['SN-A', 'SN-C']);
    expect(restarted.configs().map((m) => [m.sn, 'port' in m ? m.port : null])).toEqual([
      ['SN-A', 42001],
      ['SN-C', 41500],
    ]);
  });

  it('reads a whole list saved by an older agent as the changes it made', () => {
    const bufferDir = tempDir();
    fs.writeFileSync(
      path.join(bufferDir, 'machines.json'),
      JSON.stringify({
        version: 1,
        machines: [configuredAt('SN-A', 41001), configuredAt('SN-C', 41500)],
      }),
    );
    const restarted = machinesOf(bufferDir, [
      configuredAt('SN-A', 42001),
      configuredAt('SN-B', 42002),
    ]);
    // SN-A is the config file's (its port now), SN-B was unbound, SN-C bound from the phone.
    expect(restarted.configs().map((m) => [m.sn, 'port' in m ? m.port : null])).toEqual([
      ['SN-A', 42001],
      ['SN-C', 41500],
    ]);
  });
});
