/**
 * The monitoring line chart, in a chunk of its own: react-plotly.js's factory over the basic
 * dist bundle (never the full plotly.js). Load it with React.lazy so plotly is only fetched on
 * the monitoring page.
 */
import createPlotlyComponent from 'react-plotly.js/factory';
import Plotly from 'plotly.js-basic-dist-min';
import { CHART_DAY_FORMAT } from '../../../src/app';
import type { MonitoringSeries } from '../series';

const Plot = createPlotlyComponent(Plotly);

/**
 * The legend's words for the four series (the records' keys FAILED, SUCCEEDED, success_rate and
 * time_cost_unit_min are the data's names, not the user's).
 */
export const SERIES_LABELS = {
  succeeded: 'Succeeded',
  failed: 'Failed',
  successRate: 'Success rate (%)',
  minutesSaved: 'Minutes saved',
} as const;

/** One colour per series (the spec's random colours, fixed so the legend reads the same every visit). */
export const SERIES_COLOURS = {
  succeeded: '#107c10',
  failed: '#d13438',
  successRate: '#0f6cbd',
  minutesSaved: '#8764b8',
} as const;

const line = (colour: string) => ({
  shape: 'spline' as const,
  smoothing: 0.1,
  color: colour,
  width: 2,
});

/** The four series over the window's dates: counts on the left axis, rate and minutes on the right. */
export default function MonitoringChart({ series, title }: { series: MonitoringSeries; title: string }) {
  const x = series.dates;
  const common = {
    type: 'scatter' as const,
    mode: 'lines+markers' as const,
    x,
    marker: { size: 1 },
  };
  return (
    <figure aria-label={title} style={{ margin: 0 }}>
      <Plot
        data={[
          {
            ...common,
            name: SERIES_LABELS.succeeded,
            y: series.succeeded,
            line: line(SERIES_COLOURS.succeeded),
          },
          {
            ...common,
            name: SERIES_LABELS.failed,
            y: series.failed,
            line: line(SERIES_COLOURS.failed),
          },
          {
            ...common,
            name: SERIES_LABELS.successRate,
            y: series.successRate,
            yaxis: 'y2',
            line: line(SERIES_COLOURS.successRate),
          },
          {
            ...common,
            name: SERIES_LABELS.minutesSaved,
            y: series.minutesSaved,
            yaxis: 'y2',
            line: line(SERIES_COLOURS.minutesSaved),
          },
        ]}
        layout={{
          autosize: true,
          height: 380,
          margin: { l: 56, r: 64, t: 48, b: 48 },
          legend: {
            orientation: 'h',
            x: 0,
            y: 1.12,
            xanchor: 'left',
            yanchor: 'bottom',
          },
          // the shell's one day format ('25 Nov 2026', src/app date-time), on the axis and in the hover
          xaxis: { type: 'date', tickformat: CHART_DAY_FORMAT, hoverformat: CHART_DAY_FORMAT },
          yaxis: {
            title: { text: 'Runs' },
            rangemode: 'tozero',
            dtick: Math.max(...series.succeeded, ...series.failed, 0) <= 5 ? 1 : undefined,
          },
          yaxis2: {
            title: { text: `${SERIES_LABELS.successRate} / ${SERIES_LABELS.minutesSaved.toLowerCase()}` },
            overlaying: 'y',
            tickmode: 'auto',
            nticks: 6,
            side: 'right',
            range: [0, Math.max(100, ...series.minutesSaved) * 1.05],
            showgrid: false,
          },
          font: { family: 'Segoe UI, system-ui, sans-serif' },
        }}
        config={{
          displaylogo: false,
          responsive: true,
          modeBarButtonsToRemove: ['lasso2d', 'select2d'],
        }}
        useResizeHandler
        style={{ width: '100%' }}
      />
    </figure>
  );
}
