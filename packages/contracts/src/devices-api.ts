import type {
  MachineListQuery,
  MachineListReply,
  MenuNode,
  ProcessAndCountQuery,
  StatusSummary,
  StatusSummaryQuery,
} from './devices.ts';
import { endpoint } from './endpoint.ts';

/** The device list, its menu and its status summary (docs/product.md sections 2, 7; schemas in devices.ts). */
export const devicesApi = {
  machineList: endpoint<MachineListQuery, MachineListReply>(
    'GET',
    '/api/wechat/machine/list/findMachineDataByCondition',
  ),
  /**
   * How many of the machines the user may see (narrowed like the list by isFollow / produceLine /
   * produceGroup / nameTag) are in each live status.
   */
  statusSummary: endpoint<StatusSummaryQuery, StatusSummary>(
    'GET',
    '/api/wechat/machine/list/statusSummary',
  ),
  processMenu: endpoint<ProcessAndCountQuery, MenuNode[]>(
    'GET',
    '/api/rpf/userFollowSn/getProcessAndCount',
  ),
} as const;
