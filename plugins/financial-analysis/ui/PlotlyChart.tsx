/**
 * The plotly chart, in a chunk of its own: react-plotly.js's factory over the basic dist bundle
 * (never the full plotly.js). Load it with React.lazy so the chunk is only fetched where a
 * report is shown.
 */
import createPlotlyComponent from 'react-plotly.js/factory';
import Plotly from 'plotly.js-basic-dist-min';

const Plot = createPlotlyComponent(Plotly);

export interface ChartSeries {
  name: string;
  values: (number | null)[];
}

/** A grouped bar chart of the main series by period, sized to its container. */
export default function PlotlyChart({ x, series, title }: { x: string[]; series: ChartSeries[]; title: string }) {
  return (
    <Plot
      data={series.map((s) => ({ type: 'bar', name: s.name, x, y: s.values.map((v) => (v === null ? null : v)) }))}
      layout={{
        title: { text: title, font: { size: 14 } },
        barmode: 'group',
        autosize: true,
        height: 340,
        margin: { l: 64, r: 16, t: 48, b: 40 },
        legend: { orientation: 'h', y: -0.15 },
        font: { family: 'Segoe UI, system-ui, sans-serif' },
      }}
      config={{ displaylogo: false, responsive: true, modeBarButtonsToRemove: ['lasso2d', 'select2d'] }}
      useResizeHandler
      style={{ width: '100%' }}
    />
  );
}
