import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/*
 * What every chart of the app registers with ECharts: the core, the SVG renderer and the tooltip.
 * Each kind of chart registers its own parts on top, in the module that draws it, so a page loads
 * only its kind: the line and bar charts in `line-bar-echarts.ts`, the map's geo and scatter in
 * features/map. The whole of ECharts would triple a chart page's download.
 *
 * SVG, not canvas: a few hundred points per chart, crisp at any device pixel ratio, and text in the
 * DOM that tests and e2e can read.
 */
echarts.use([TooltipComponent, SVGRenderer]);

export { echarts };
