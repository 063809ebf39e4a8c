import type { MachineCard, MenuNode } from '@linewatch/contracts/devices';
import type { UserInfo, UserProfile } from '@linewatch/contracts/identity';
import { GRANTED_ROLES } from '@linewatch/contracts/identity-api';
import type { RealtimePayload } from '@linewatch/contracts/socket';
import type { StatisticsRow } from '@linewatch/contracts/statistics';

/** Contract objects for tests: sensible defaults, the test names only what it is about. */

export const buildMachineCard = (overrides: Partial<MachineCard> = {}): MachineCard => ({
  snCode: 'SN-1',
  nickSnCode: '',
  deviceName: '点胶机',
  deviceStatus: 'running',
  iot: 1,
  isCollect: false,
  produceLine: 'L1',
  produceGroup: '',
  produceNumber: 1,
  produceTargetNumber: 1,
  produceTargetDue: 1,
  ngNumber: 0,
  ngTargetNumber: 0,
  ngTargetDue: 0,
  targetPartial: false,
  ppm: 1,
  maxPPM: 1,
  ppmTarget: 1,
  superiorityRate: 99,
  superiorityRateTarget: 98,
  yield: 99,
  yieldTarget: 98,
  useRate: 90,
  useRateTarget: 80,
  ...overrides,
});

/** A production line of the device list's menu. */
export const buildLineNode = (produceLine: string, text: string, count: number): MenuNode => ({
  kind: 'line',
  text,
  produceLine,
  count,
  children: [],
});

export const buildRealtimePayload = (
  overrides: Partial<RealtimePayload> = {},
): RealtimePayload => ({
  MsgType: 'machineList',
  SN: 'SN-1',
  deviceName: '贴片机',
  EquipmentStatus: 2,
  updatedAt: null,
  alarms: [],
  productData: [],
  progress: [],
  dateData: [],
  ...overrides,
});

export const buildUserInfo = (overrides: Partial<UserInfo> = {}): UserInfo => ({
  name: '测试员',
  nickName: 'tester',
  ...overrides,
});

export const buildStatisticsRow = (overrides: Partial<StatisticsRow> = {}): StatisticsRow => ({
  machineCode: 'SN-1',
  nickSnCode: '',
  deviceName: '点胶机',
  productLine: 'L1',
  productGroup: 'G1',
  produceNumber: 100,
  produceTargetNumber: 90,
  ngNumber: 1,
  ngTargetNumber: 2,
  yield: 99,
  yieldTarget: 98,
  avgPPM: 10,
  maxPPM: 12,
  ppmTarget: 10,
  useRate: 90,
  useRateTarget: 80,
  preProcessWaitingTime: 60,
  afterProcessWaitingTime: 120,
  runningTime: 3600,
  errorTime: 0,
  waitingTime: 180,
  ...overrides,
});

/** /api/sys/user/getUser's reply: an operator signed in with a password. */
export const buildUserProfile = (overrides: Partial<UserProfile> = {}): UserProfile => ({
  userId: 1,
  psnCode: 'E1001',
  name: '测试员',
  nickName: 'tester',
  mobile: null,
  isAdmin: false,
  roles: [...GRANTED_ROLES],
  signedInWith: 'password',
  ...overrides,
});

/**
 * The alarm dictionary's words (the server's alarm_definitions, seeded by its migration 004):
 * fixtures name an alarm as every screen does, never with words of their own for a code.
 */
const ALARM_DICTIONARY = {
  E101: '送料超时',
  E205: '气压不足',
  E307: '伺服报警',
  E412: '安全门打开',
  E518: '温度过高',
} as const;

/** An alarm as the server words it: `E101 送料超时`. */
export const alarmText = (code: keyof typeof ALARM_DICTIONARY): string =>
  `${code} ${ALARM_DICTIONARY[code]}`;
