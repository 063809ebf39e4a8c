import type { OpcuaProfile } from '@linewatch/contracts/plc-profiles';
import { OPCUACertificateManager } from 'node-opcua-certificate-manager';
import { DataType, Variant } from 'node-opcua-client';
import { OPCUAServer } from 'node-opcua-server';
import type { PlcImage } from '../drivers/figures.ts';
import { IDLE_CODES } from '../drivers/figures.ts';

export interface OpcuaPlcOptions {
  host: string;
  port: number;
  profile: OpcuaProfile;
  /** What the PLC holds now; each variable reads it when the server samples it. */
  image: () => PlcImage;
  /** Where the server keeps its certificate. */
  pkiDir: string;
  /** User name → password; anonymous sessions are taken too unless `anonymous` is false. */
  users?: Record<string, string>;
  anonymous?: boolean;
}

/**
 * node-opcua's server with one variable at each node id of an OPC UA profile (its own namespace,
 * index 1), every security mode and policy it supports offered, for the simulated PLCs of
 * plc-sim, the demo and the tests.
 */
export const startOpcuaPlc = async (options: OpcuaPlcOptions) => {
  const { profile, image, users = {} } = options;
  const server = new OPCUAServer({
    hostname: options.host,
    port: options.port,
    allowAnonymous: options.anonymous ?? true,
    serverCertificateManager: new OPCUACertificateManager({
      rootFolder: options.pkiDir,
      automaticallyAcceptUnknownCertificate: true,
    }),
    userManager: { isValidUser: (user: string, password: string) => users[user] === password },
    buildInfo: { productName: 'Linewatch simulated PLC' },
  });
  await server.initialize();
  const { addressSpace } = server.engine;
  if (!addressSpace) throw new Error('OPC UA server without an address space');
  const namespace = addressSpace.getOwnNamespace();
  const machine = namespace.addObject({
    organizedBy: addressSpace.rootFolder.objects,
    browseName: 'Machine',
  });
  const add = (nodeId: string, dataType: DataType, value: () => number | boolean) => {
    const own = /^ns=1;(.+)$/.exec(nodeId);
    if (!own) throw new Error(`simulated OPC UA PLC: ${nodeId} is not in namespace 1`);
    namespace.addVariable({
      componentOf: machine,
      nodeId: own[1]!,
      browseName: own[1]!.slice(2),
      dataType,
      minimumSamplingInterval: 50,
      value: { get: () => new Variant({ dataType, value: value() }) },
    });
  };
  add(profile.status, DataType.UInt16, () => image().status);
  add(profile.idleReason, DataType.UInt16, () => {
    const { idleReason } = image();
    return idleReason ? IDLE_CODES[idleReason] : 0;
  });
  for (const counter of ['produced', 'ok', 'ng', 'firstPassOk'] as const)
    add(profile.counters[counter], DataType.UInt32, () => image().counters[counter] >>> 0);
  for (const alarm of profile.alarms)
    add(alarm.nodeId, DataType.Boolean, () => image().activeAlarms.includes(alarm.code));
  profile.setpoints.forEach((setpoint, i) =>
    add(setpoint.nodeId, DataType.UInt16, () => image().setpoints[i] ?? 0),
  );
  await server.start();
  return {
    host: options.host,
    port: options.port,
    endpointUrl: `opc.tcp://${options.host}:${options.port}${profile.endpointPath}`,
    close: () => server.shutdown(0),
  };
};
