import type {
  MapPoints,
  MapQuery,
  MapStatus,
  Option,
  ProductGroupQuery,
  StatisticsQuery,
  StatisticsReply,
} from './statistics.ts';
import { endpoint } from './endpoint.ts';

/** The device map and the statistics page (docs/product.md section 7, map and statistics). */
export const statisticsApi = {
  /** The visible machines of an area (mapLevel, positionName) by live status. */
  mapData: endpoint<MapQuery, MapStatus>('GET', '/api/rpf/machine/map/getMachineMapData'),
  /** The area's next-level regions with their machine counts (the map's scatter). */
  mapAllData: endpoint<MapQuery, MapPoints>('GET', '/api/rpf/machine/map/getMachineMapAllData'),
  productLines: endpoint<Record<string, never>, Option[]>(
    'GET',
    '/api/rpf/machine/list/getProductLine',
  ),
  productGroups: endpoint<ProductGroupQuery, Option[]>(
    'GET',
    '/api/rpf/machine/list/getProductGroupByProductLine',
  ),
  statistics: endpoint<StatisticsQuery, StatisticsReply>('GET', '/api/rpf/machine/statistics'),
} as const;
