import { endpoint } from './endpoint.ts';
import type {
  AddFollowBody,
  CancelFollowBody,
  ChangedReply,
  DelFollowsBody,
  DictItem,
  FollowIdBody,
  FollowIdsBody,
  FollowListQuery,
  FollowListReply,
  FollowSettings,
  SnCodeQuery,
  SnCodesQuery,
  SnCodesReply,
  UserDictQuery,
} from './subscriptions.ts';

/** Subscriptions (docs/product.md sections 2, 3, 7; schemas in subscriptions.ts). */
export const subscriptionsApi = {
  addFollow: endpoint<AddFollowBody, ChangedReply>('POST', '/api/wechat/machine/list/addFollow'),
  cancelFollow: endpoint<CancelFollowBody, ChangedReply>(
    'POST',
    '/api/wechat/machine/list/cancelFollow',
  ),
  /** The settings of one machine (the first SN of a batch). */
  followSettings: endpoint<SnCodeQuery, FollowSettings>(
    'GET',
    '/api/wechat/machine/list/getUserFollowSnBySnCode',
  ),
  /** Product group dictionary of the user's lines. */
  processSections: endpoint<void, DictItem[]>('GET', '/api/rpf/userFollowSn/getProcessSections'),
  /** SN codes for the selector, 20 per chunk. */
  snCodes: endpoint<SnCodesQuery, SnCodesReply>('GET', '/api/rpf/userFollowSn/getWeChatSnCodes'),
  delFollows: endpoint<DelFollowsBody, ChangedReply>('POST', '/api/rpf/userFollowSn/delFollows'),
  // The spec's "not shown by path" variants: the list (pageNumber/pageSize 20/totalNum), the user
  // dictionary (nameTag), delete one (id), batch delete (ids). The product group dictionary and
  // the SN list are processSections and snCodes; follow add (snCode) is addFollow with the SN only.
  list: endpoint<FollowListQuery, FollowListReply>('GET', '/api/rpf/userFollowSn/list'),
  /** The machines this user follows, as dictionary items (at most PAGE_SIZE.options). */
  userDict: endpoint<UserDictQuery, DictItem[]>('GET', '/api/rpf/userFollowSn/userDict'),
  deleteOne: endpoint<FollowIdBody, ChangedReply>('POST', '/api/rpf/userFollowSn/delete'),
  deleteByIds: endpoint<FollowIdsBody, ChangedReply>('POST', '/api/rpf/userFollowSn/deleteByIds'),
} as const;
