import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import { BarChart, LineChart } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import { GridComponent, LegendComponent } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { echarts } from './echarts.ts';

/*
 * The line and bar charts' ECharts parts (history, real-time report), on top of the app's
 * registration (`echarts.ts`): the map page does not load them. A new chart kind of this family
 * (bars for the statistics, say) is registered here and added to ChartOption.
 */
echarts.use([LineChart, BarChart, GridComponent, LegendComponent]);

export type ChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
>;

export { echarts };
