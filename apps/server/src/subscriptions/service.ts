import type {
  DictItem,
  FollowListReply,
  FollowSettings,
  SnCodesReply,
  addFollowBody,
  followListQuery,
  snCodesQuery,
  userDictQuery,
} from '@linewatch/contracts/subscriptions';
import { ReplyCode } from '@linewatch/contracts/envelope';
import { PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import { subscriptionMessages } from '@linewatch/contracts/subscriptions';
import type { z } from 'zod';
import type { DevicesService } from '../devices/service.ts';
import { DomainError, forbidden, notFound } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import type { SubscriptionsRepository } from './repository.ts';

export interface SubscriptionsDeps {
  repo: SubscriptionsRepository;
  devices: Pick<DevicesService, 'checkMachine' | 'visibleLineIds' | 'list' | 'followsChanged'>;
}

type AddFollow = z.output<typeof addFollowBody>;

/** A machine as a dictionary item: its nickname when it has one, its SN as the value. */
const dictItemOf = (r: { sn_code: string; nick_sn_code: string }): DictItem => ({
  label: r.nick_sn_code || r.sn_code,
  value: r.sn_code,
});

const deleteGone = () => new DomainError(ReplyCode.notFound, subscriptionMessages.deleteGone);

export const createSubscriptionsService = ({ repo, devices }: SubscriptionsDeps) => {
  /** Every SN must be a machine the user may see: one hidden machine refuses the whole batch. */
  const requireVisible = async (user: SessionUser, sns: string[]) => {
    for (const sn of sns) {
      const check = await devices.checkMachine(user, sn);
      if (!check.ok) throw check.reason === 'unknown' ? notFound() : forbidden();
    }
  };

  return {
    async follow(user: SessionUser, body: AddFollow): Promise<number> {
      const sns = [...new Set(body.snCode)];
      await requireVisible(user, sns);
      const count = await repo.upsert(user.userId, sns, body);
      devices.followsChanged([user.userId]);
      return count;
    },

    /**
     * Cancels the follows of these machines. `asDelete` (delFollows, a delete in the spec):
     * with none of them followed there was nothing to delete — the page is stale — and the reply
     * says 删除有误，请重新进入页面操作 (docs/product.md section 8); machines of the batch not followed are
     * otherwise no-ops (全选 then 批量取消).
     */
    async unfollow(user: SessionUser, snList: string[], asDelete = false): Promise<number> {
      const sns = [...new Set(snList)];
      await requireVisible(user, sns);
      const count = await repo.deleteBySns(user.userId, sns);
      devices.followsChanged([user.userId]);
      if (asDelete && count === 0) throw deleteGone();
      return count;
    },

    /**
     * Only the user's own follows can go, all or none: an id that is not (or no longer) one of
     * them deletes nothing and says 删除有误，请重新进入页面操作 (docs/product.md section 8).
     */
    async deleteByIds(user: SessionUser, ids: number[]): Promise<number> {
      const count = await repo.deleteByIds(user.userId, ids);
      if (count === null) throw deleteGone();
      devices.followsChanged([user.userId]);
      return count;
    },

    async settings(user: SessionUser, sn: string): Promise<FollowSettings> {
      await requireVisible(user, [sn]);
      const row = await repo.find(user.userId, sn);
      return {
        snCode: sn,
        isFollow: row !== undefined,
        userFollowSnId: row?.id ?? null,
        realTimeReminder: row?.real_time_reminder ?? false,
        threeParameters: row?.three_parameters ?? false,
        alarm: row?.alarm ?? false,
        daily: row?.daily ?? false,
        week: row?.week ?? false,
        timeLength: row?.time_length ?? 0,
      };
    },

    async groups(user: SessionUser): Promise<DictItem[]> {
      const names = await repo.groupNames(await devices.visibleLineIds(user));
      return names.map((name) => ({ label: name, value: name }));
    },

    async snCodes(user: SessionUser, q: z.output<typeof snCodesQuery>): Promise<SnCodesReply> {
      const { rows, total } = await repo.snCodes(
        await devices.visibleLineIds(user),
        q.nameTag || undefined,
        (q.pageIndex - 1) * q.pageSize,
        q.pageSize,
      );
      return { data: rows.map(dictItemOf), totalNum: total };
    },

    /** The user dictionary: the machines this user follows and may still see (a revoked line's are left out). */
    async userDict(user: SessionUser, q: z.output<typeof userDictQuery>): Promise<DictItem[]> {
      const rows = await repo.followedSnCodes(
        user.userId,
        await devices.visibleLineIds(user),
        q.nameTag || undefined,
        PAGE_SIZE.options,
      );
      return rows.map(dictItemOf);
    },

    /** The device list's figures for today, with each machine's follow (spec: columns device, yield, utilisation, PPM). */
    async list(user: SessionUser, q: z.output<typeof followListQuery>): Promise<FollowListReply> {
      const page = await devices.list(user, {
        isFollow: q.isFollow,
        produceGroup: q.produceGroup,
        nameTag: q.nameTag,
        pageIndex: q.pageNumber,
        pageSize: q.pageSize,
      });
      const ids = await repo.idsOf(
        user.userId,
        page.data.map((c) => c.snCode),
      );
      return {
        totalNum: page.total,
        data: page.data.map((c) => ({
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
          isFollow: ids.has(c.snCode),
          userFollowSnId: ids.get(c.snCode) ?? null,
        })),
      };
    },
  };
};

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
