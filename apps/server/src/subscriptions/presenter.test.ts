import { describe, expect, it } from 'vitest';
import {
  presentFollowList,
  presentGroupItem,
  presentMachineItem,
  presentSettings,
  presentSnCodes,
} from './presenter.ts';

const card = {
  snCode: 'SN-1',
  nickSnCode: '',
  deviceName: '点胶机',
  produceGroup: '主板',
  yield: null,
  yieldTarget: 95,
  useRate: 80.5,
  useRateTarget: 80,
  ppm: null,
  ppmTarget: 60,
};

describe('subscriptions presenter', () => {
  it('a machine not followed: every setting off, no follow id', () => {
    expect(presentSettings({ snCode: 'SN-1', follow: undefined })).toEqual({
      snCode: 'SN-1',
      isFollow: false,
      userFollowSnId: null,
      realTimeReminder: false,
      threeParameters: false,
      alarm: false,
      daily: false,
      week: false,
      timeLength: 0,
    });
  });

  it('a followed machine: its follow id and settings', () => {
    const follow = {
      id: 12,
      realTimeReminder: true,
      threeParameters: false,
      alarm: true,
      daily: false,
      week: true,
      timeLength: 30,
    };
    expect(presentSettings({ snCode: 'SN-1', follow })).toEqual({
      snCode: 'SN-1',
      isFollow: true,
      userFollowSnId: 12,
      realTimeReminder: true,
      threeParameters: false,
      alarm: true,
      daily: false,
      week: true,
      timeLength: 30,
    });
  });

  it('dictionary items: the nickname when there is one, the SN as the value', () => {
    expect(presentMachineItem({ snCode: 'SN-1', nickSnCode: '' })).toEqual({
      label: 'SN-1',
      value: 'SN-1',
    });
    expect(presentMachineItem({ snCode: 'SN-2', nickSnCode: '二号' })).toEqual({
      label: '二号',
      value: 'SN-2',
    });
    expect(presentGroupItem('主板')).toEqual({ label: '主板', value: '主板' });
    expect(presentSnCodes({ machines: [], total: 0 })).toEqual({ data: [], totalNum: 0 });
  });

  it('the list marks each machine followed or not; no data stays null', () => {
    const reply = presentFollowList({
      total: 2,
      cards: [
        { ...card, followId: 12 },
        { ...card, snCode: 'SN-2', followId: null },
      ],
    });
    expect(reply.totalNum).toBe(2);
    expect(reply.data[0]).toEqual({ ...card, isFollow: true, userFollowSnId: 12 });
    expect(reply.data[1]).toMatchObject({ snCode: 'SN-2', isFollow: false, userFollowSnId: null });
    expect(reply.data[1]).toMatchObject({ yield: null, ppm: null });
  });
});
