import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import { BarChart, LineChart } from 'echarts/charts';
import type { GridComponentOption, TooltipComponentOption } from 'echarts/components';
import { GridComponent, TooltipComponent } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/*
 * The one registration of ECharts parts, for every chart of the app. Only what the charts use:
 * the whole of ECharts would triple a chart page's download. A new chart kind (bars for the
 * statistics, say) is registered here and added to ChartOption.
 *
 * SVG, not canvas: a few hundred points per chart, crisp at any device pixel ratio, and text in the
 * DOM that tests and e2e can read.
 */
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, SVGRenderer]);

export type ChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | GridComponentOption | TooltipComponentOption
>;

export { echarts };
