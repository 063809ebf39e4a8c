import type {
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
import type { Follow, MachineName, SubscriptionsRepository } from './repository.ts';

type MachineCard = Awaited<ReturnType<DevicesService['list']>>['data'][number];

/** A machine of the subscription list: its figures for today and the user's follow id, if any. */
export type FollowedCard = Pick<
  MachineCard,
  | 'snCode'
  | 'nickSnCode'
  | 'deviceName'
  | 'produceGroup'
  | 'yield'
  | 'yieldTarget'
  | 'useRate'
  | 'useRateTarget'
  | 'ppm'
  | 'ppmTarget'
> & { followId: number | null };

/** A machine's follow as the settings page reads it: undefined, not followed. */
export interface FollowOf {
  snCode: string;
  follow: Follow | undefined;
}

export interface SubscriptionsDeps {
  repo: SubscriptionsRepository;
  devices: Pick<DevicesService, 'checkMachine' | 'visibleLineIds' | 'list' | 'followsChanged'>;
}

type AddFollow = z.output<typeof addFollowBody>;

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

    async settings(user: SessionUser, sn: string): Promise<FollowOf> {
      await requireVisible(user, [sn]);
      return { snCode: sn, follow: await repo.find(user.userId, sn) };
    },

    /** The product groups' names on the lines the user sees. */
    groups: async (user: SessionUser): Promise<string[]> =>
      repo.groupNames(await devices.visibleLineIds(user)),

    snCodes: async (
      user: SessionUser,
      q: z.output<typeof snCodesQuery>,
    ): Promise<{ machines: MachineName[]; total: number }> =>
      repo.snCodes(
        await devices.visibleLineIds(user),
        q.nameTag || undefined,
        (q.pageIndex - 1) * q.pageSize,
        q.pageSize,
      ),

    /** The user dictionary: the machines this user follows and may still see (a revoked line's are left out). */
    userDict: async (
      user: SessionUser,
      q: z.output<typeof userDictQuery>,
    ): Promise<MachineName[]> =>
      repo.followedSnCodes(
        user.userId,
        await devices.visibleLineIds(user),
        q.nameTag || undefined,
        PAGE_SIZE.options,
      ),

    /** The device list's figures for today, with each machine's follow (spec: columns device, yield, utilisation, PPM). */
    async list(
      user: SessionUser,
      q: z.output<typeof followListQuery>,
    ): Promise<{ total: number; cards: FollowedCard[] }> {
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
        total: page.total,
        cards: page.data.map((c) => ({ ...c, followId: ids.get(c.snCode) ?? null })),
      };
    },
  };
};

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
