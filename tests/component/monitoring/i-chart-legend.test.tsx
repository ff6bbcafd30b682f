import { render } from '@testing-library/react';
import MonitoringChart from '../../../plugins/monitoring/ui/MonitoringChart';

// plotly needs a real browser: the factory's component is replaced by one that keeps its props
const plotted: Array<{ data: Array<{ name: string; y: number[]; yaxis?: string }>; layout: { yaxis2: { title: { text: string } } } }> = [];
jest.mock('plotly.js-basic-dist-min', () => ({}));
jest.mock('react-plotly.js/factory', () => ({
  __esModule: true,
  default: () => (props: (typeof plotted)[number]) => {
    plotted.push(props);
    return null;
  },
}));

describe("the monitoring chart speaks the user's words (issue 25)", () => {
  it('names the four series Succeeded, Failed, Success rate (%) and Minutes saved, each with its own values', () => {
    render(
      <MonitoringChart
        title="Runs of Invoice Data Extraction"
        series={{ dates: ['2026-11-23', '2026-11-24'], succeeded: [3, 4], failed: [1, 0], successRate: [75, 100], minutesSaved: [12, 16] }}
      />,
    );
    const { data, layout } = plotted.at(-1)!;
    expect(data.map((d) => [d.name, d.y, d.yaxis ?? 'y'])).toEqual([
      ['Succeeded', [3, 4], 'y'],
      ['Failed', [1, 0], 'y'],
      ['Success rate (%)', [75, 100], 'y2'],
      ['Minutes saved', [12, 16], 'y2'],
    ]);
    expect(layout.yaxis2.title.text).toBe('Success rate (%) / minutes saved');
    // no raw record key is left in anything the chart shows
    const shown = JSON.stringify([data.map((d) => d.name), layout]);
    for (const raw of ['SUCCEEDED', 'FAILED', 'success_rate', 'time_cost_unit_min']) expect(shown).not.toContain(raw);
  });
});
