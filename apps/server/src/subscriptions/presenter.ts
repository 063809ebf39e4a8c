import type {
  DictItem,
  FollowListReply,
  FollowSettings,
  SnCodesReply,
} from '@linewatch/contracts/subscriptions';
import type { MachineName } from './repository.ts';
import type { FollowedCard, FollowOf } from './service.ts';

/** A machine not followed reads as a follow with every setting off. */
export const presentSettings = ({ snCode, follow }: FollowOf): FollowSettings => ({
  snCode,
  isFollow: follow !== undefined,
  userFollowSnId: follow?.id ?? null,
  realTimeReminder: follow?.realTimeReminder ?? false,
  threeParameters: follow?.threeParameters ?? false,
  alarm: follow?.alarm ?? false,
  daily: follow?.daily ?? false,
  week: follow?.week ?? false,
  timeLength: follow?.timeLength ?? 0,
});

/** A machine as a dictionary item: its nickname when it has one, its SN as the value. */
export const presentMachineItem = (m: MachineName): DictItem => ({
  label: m.nickSnCode || m.snCode,
  value: m.snCode,
});

export const presentGroupItem = (name: string): DictItem => ({ label: name, value: name });

export const presentSnCodes = (chunk: {
  machines: MachineName[];
  total: number;
}): SnCodesReply => ({
  data: chunk.machines.map(presentMachineItem),
  totalNum: chunk.total,
});

/** The subscription list (columns device, yield, utilisation, PPM) with each machine's follow. */
export const presentFollowList = (page: {
  total: number;
  cards: FollowedCard[];
}): FollowListReply => ({
  totalNum: page.total,
  data: page.cards.map((c) => ({
    snCode: c.snCode,
    nickSnCode: c.nickSnCode,
    deviceName: c.deviceName,
    produceGroup: c.produceGroup,
    yield: c.yield,
    yieldTarget: c.yieldTarget,
    useRate: c.useRate,
    useRateTarget: c.useRateTarget,
    ppm: c.ppm,
    ppmTarget: c.ppmTarget,
    isFollow: c.followId !== null,
    userFollowSnId: c.followId,
  })),
});
