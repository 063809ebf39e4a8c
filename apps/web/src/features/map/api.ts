import { statisticsApi } from '@linewatch/contracts/statistics-api';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { liveRefresh } from '../../shared/live-refresh.ts';
import { queryKeys } from '../../shared/query-keys.ts';
import { queryOf, type Area } from './area.ts';
import { loadGeo, loadGeoIndex } from './geo.ts';

/** The area's machines by live status, refreshed like the device list. */
export const useMapStatus = (area: Area) => {
  const query = queryOf(area);
  return useQuery({
    queryKey: queryKeys.map.status(query),
    refetchInterval: liveRefresh,
    queryFn: ({ signal }) => call(statisticsApi.mapData, query, { signal }),
  });
};

/** The area's regions with their machine counts (the scatter), refreshed like the summary. */
export const useMapPoints = (area: Area) => {
  const query = queryOf(area);
  return useQuery({
    queryKey: queryKeys.map.points(query),
    refetchInterval: liveRefresh,
    queryFn: ({ signal }) => call(statisticsApi.mapAllData, query, { signal }),
  });
};

const forever = { staleTime: Infinity, gcTime: Infinity } as const;

/** `enabled` false holds the request back (a cached index is still given). */
export const useGeoIndex = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.map.geo('index.json'),
    enabled,
    ...forever,
    queryFn: ({ signal }) => loadGeoIndex(signal),
  });

export const useGeo = (file: string | null, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.map.geo(file ?? ''),
    enabled: enabled && file !== null,
    ...forever,
    queryFn: ({ signal }) => loadGeo(file!, signal),
  });
