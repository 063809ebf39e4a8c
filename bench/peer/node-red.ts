import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/server.ts';
import { PEER_DIR, PEER_NODE } from './install.ts';
import { stopChild, track, type Arrival, type Side } from './side.ts';

/** The FX5U's registers as one read takes them (the agent's span: addresses 0 to 32). */
const FIRST_REGISTER = 0;
const REGISTERS = 33;
const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_PAGE = `${DASHBOARD_PATH}/machines`;

/**
 * The id of machine `i`'s part-count widget, and back. Every id is prefixed: Node-RED takes any
 * property whose value is another config node's id for a reference ('page' would be one).
 */
const textId = (i: number) => `lw-text${i}`;
const machineOfText = (id: string) => Number(/^lw-text(\d+)$/.exec(id)?.[1] ?? -1);

/**
 * The flow a Node-RED user builds for the same screen: per machine, a Modbus client of its PLC,
 * a modbus-read polling the FX5U's registers once a second, a function decoding the part count
 * (32 bits, low word first, at 10) and the status (at 0), and a dashboard group showing them in
 * a text and a gauge; every group on one page.
 */
export const flowOf = (ports: number[]) => {
  const tab = { id: 'lw-tab', type: 'tab', label: 'Linewatch bench', disabled: false, info: '' };
  const ui = [
    {
      id: 'lw-base',
      type: 'ui-base',
      name: 'Linewatch bench',
      path: DASHBOARD_PATH,
      includeClientData: true,
      acceptsClientConfig: ['ui-notification', 'ui-control'],
      showPathInSidebar: false,
      headerContent: 'page',
      navigationStyle: 'default',
      titleBarStyle: 'default',
    },
    { id: 'lw-theme', type: 'ui-theme', name: 'Default', colors: {}, sizes: {} },
    {
      id: 'lw-page',
      type: 'ui-page',
      name: 'Machines',
      ui: 'lw-base',
      path: DASHBOARD_PAGE.slice(DASHBOARD_PATH.length),
      icon: 'home',
      layout: 'grid',
      theme: 'lw-theme',
      order: 1,
      className: '',
      visible: 'true',
      disabled: 'false',
    },
  ];
  const machines = ports.flatMap((port, i) => [
    {
      id: `lw-client${i}`,
      type: 'modbus-client',
      name: `PLC ${i}`,
      clienttype: 'tcp',
      bufferCommands: true,
      stateLogEnabled: false,
      queueLogEnabled: false,
      failureLogEnabled: false,
      tcpHost: '127.0.0.1',
      tcpPort: String(port),
      tcpType: 'DEFAULT',
      unit_id: '1',
      commandDelay: '1',
      clientTimeout: '1000',
      reconnectOnTimeout: true,
      reconnectTimeout: '2000',
      parallelUnitIdsAllowed: true,
    },
    {
      id: `lw-read${i}`,
      type: 'modbus-read',
      z: 'lw-tab',
      name: `machine ${i}`,
      topic: '',
      showStatusActivities: false,
      logIOActivities: false,
      showErrors: false,
      showWarnings: false,
      unitid: '1',
      dataType: 'HoldingRegister',
      adr: String(FIRST_REGISTER),
      quantity: String(REGISTERS),
      rate: '1',
      rateUnit: 's',
      delayOnStart: false,
      startDelayTime: '',
      server: `lw-client${i}`,
      useIOFile: false,
      ioFile: '',
      useIOForPayload: false,
      emptyMsgOnFail: false,
      keepMsgProperties: false,
      x: 150,
      y: 40 + i * 40,
      wires: [[`lw-decode${i}`], []],
    },
    {
      id: `lw-decode${i}`,
      type: 'function',
      z: 'lw-tab',
      name: 'decode',
      func:
        'const w = msg.payload;\n' +
        "return [{ topic: 'produced', payload: w[10] + w[11] * 65536 }, { topic: 'status', payload: w[0] }];",
      outputs: 2,
      timeout: 0,
      noerr: 0,
      initialize: '',
      finalize: '',
      libs: [],
      x: 350,
      y: 40 + i * 40,
      wires: [[textId(i)], [`lw-gauge${i}`]],
    },
    {
      id: `lw-group${i}`,
      type: 'ui-group',
      name: `机台 ${i}`,
      page: 'lw-page',
      width: '3',
      height: '1',
      order: i + 1,
      showTitle: true,
      className: '',
      visible: 'true',
      disabled: 'false',
      groupType: 'default',
    },
    {
      id: textId(i),
      type: 'ui-text',
      z: 'lw-tab',
      group: `lw-group${i}`,
      order: 1,
      width: 0,
      height: 0,
      name: '',
      label: '当前产量',
      format: '{{msg.payload}}',
      layout: 'row-spread',
      style: false,
      font: '',
      fontSize: 16,
      color: '#717171',
      wrapText: false,
      className: '',
      value: 'payload',
      valueType: 'msg',
      x: 550,
      y: 40 + i * 40,
      wires: [],
    },
    {
      id: `lw-gauge${i}`,
      type: 'ui-gauge',
      z: 'lw-tab',
      name: '',
      group: `lw-group${i}`,
      order: 2,
      value: 'payload',
      valueType: 'msg',
      width: 3,
      height: 2,
      gtype: 'gauge-half',
      gstyle: 'needle',
      title: '状态',
      units: '',
      icon: '',
      prefix: '',
      suffix: '',
      // Linewatch's status codes: 1 standing by, 2 running, 3 fault.
      segments: [
        { from: 0, color: '#999999' },
        { from: 1, color: '#ffc800' },
        { from: 2, color: '#5cd65c' },
        { from: 3, color: '#ea5353' },
      ],
      min: 0,
      max: 3,
      sizeThickness: 16,
      sizeGap: 4,
      sizeKeyThickness: 8,
      styleRounded: true,
      styleGlow: false,
      className: '',
      x: 550,
      y: 60 + i * 40,
      wires: [[]],
    },
  ]);
  return [tab, ...ui, ...machines];
};

/** The slice of socket.io-client's API used here (loaded from the peer's folder). */
interface DashboardSocket {
  onAny(listener: (event: string, msg: { payload?: unknown }) => void): void;
  once(event: 'connect', listener: () => void): void;
  close(): void;
}

/**
 * Node-RED with the flow above in a user directory of its own (no projects, no editor sign-in, a
 * fixed port, no update checks), on Node.js 22 from the peer's folder, and the dashboard's socket
 * (socket.io, long-polling first then upgraded, as the page's client connects) listening to every
 * widget's messages: the dashboard sends each to every open page.
 */
export const startNodeRed = async ({
  ports,
  onArrival,
}: {
  ports: number[];
  onArrival: (arrival: Arrival) => void;
}): Promise<Side & { baseUrl: string }> => {
  const dir = mkdtempSync(join(tmpdir(), 'lw-bench-node-red-'));
  const port = await freePort();
  writeFileSync(join(dir, 'flows.json'), JSON.stringify(flowOf(ports)));
  writeFileSync(
    join(dir, 'settings.js'),
    `module.exports = ${JSON.stringify(
      {
        uiHost: '127.0.0.1',
        uiPort: port,
        userDir: dir,
        flowFile: 'flows.json',
        credentialSecret: 'linewatch-bench',
        editorTheme: { projects: { enabled: false }, tours: false },
        telemetry: { enabled: false },
        diagnostics: { enabled: false },
        externalModules: { autoInstall: false, palette: { allowInstall: false } },
        functionExternalModules: false,
        logging: { console: { level: 'warn', metrics: false, audit: false } },
      },
      null,
      2,
    )};\n`,
  );
  const child = track(
    spawn(
      PEER_NODE,
      [
        join(PEER_DIR, 'node_modules/node-red/red.js'),
        '--settings',
        join(dir, 'settings.js'),
        '--userDir',
        dir,
      ],
      { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] },
    ),
  );
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`node-red exited ${code}`))),
  );
  exited.catch(() => {});
  const baseUrl = `http://127.0.0.1:${port}`;
  // Up once the dashboard's page is served (its nodes loaded, the flow started).
  for (;;) {
    const ok = await Promise.race([
      fetch(`${baseUrl}${DASHBOARD_PAGE}`).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }

  const { io } = createRequire(join(PEER_DIR, 'package.json'))('socket.io-client') as {
    io: (url: string, options: { path: string }) => DashboardSocket;
  };
  const socket = io(baseUrl, { path: `${DASHBOARD_PATH}/socket.io` });
  socket.onAny((event, msg) => {
    if (!event.startsWith('msg-input:')) return;
    const machine = machineOfText(event.slice('msg-input:'.length));
    if (machine >= 0 && typeof msg.payload === 'number')
      onArrival({ machine, at: Date.now(), value: msg.payload });
  });
  await new Promise<void>((resolve) => socket.once('connect', resolve));

  return {
    processes: { 'node-red': child.pid! },
    baseUrl,
    stop: async () => {
      socket.close();
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
