import { Suspense, lazy, useState } from 'react';
import {
  Badge,
  Body1,
  Caption1,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Subtitle1,
  Subtitle2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { AnalysisReport, Finding } from '../engine/analysis';
import { Panel, RovingTab, RovingTabList, SortableTable, type Column } from '../../../src/app';

const PlotlyChart = lazy(() => import(/* webpackChunkName: "plotly-chart" */ './PlotlyChart'));

export const FOCUS_TITLES: Record<string, string> = {
  'overall-financial-position': 'Overall financial position',
  'risk-and-vulnerabilities': 'Risks and vulnerabilities',
  'opportunities-and-strengths': 'Opportunities and strengths',
  'cash-flow-management': 'Cash-flow management',
  'sales-and-income': 'Sales and income',
};

const useStyles = makeStyles({
  root: { display: 'grid', gap: '16px', minWidth: 0 },
  section: { display: 'grid', gap: '8px' },
  findings: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 320px), 1fr))', gap: '12px' },
  finding: { padding: '12px', display: 'grid', gap: '6px' },
  summary: { whiteSpace: 'pre-wrap', margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  list: { margin: 0, paddingLeft: '20px', display: 'grid', gap: '4px' },
  chart: { minHeight: '340px', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, padding: '4px' },
});

const SEVERITY_COLOURS: Record<Finding['severity'], 'danger' | 'warning' | 'success' | 'brand' | 'informative'> = {
  concern: 'danger',
  watch: 'warning',
  opportunity: 'brand',
  strength: 'success',
  info: 'informative',
};

const amount = (v: number | null) => (v === null ? '—' : v.toLocaleString('en-GB', { maximumFractionDigits: 2 }));
function ratio(v: number | null, unit: 'percent' | 'times' | 'days'): string {
  if (v === null) return '—';
  if (unit === 'percent') return `${(v * 100).toFixed(1)}%`;
  if (unit === 'days') return `${Math.round(v)} days`;
  return `${v.toFixed(2)}×`;
}

type LineItem = AnalysisReport['lineItems'][number];
type Ratio = AnalysisReport['ratios'][number];

function lineItemColumns(periods: string[]): Column<LineItem>[] {
  return [
    { id: 'name', title: 'Line item', value: (l) => l.name },
    { id: 'label', title: 'Label in the file', value: (l) => (l.derived ? `${l.label} (${l.derived})` : l.label) },
    ...periods.map((p, i) => ({ id: `p${i}`, title: p, value: (l: LineItem) => l.values[i], render: (l: LineItem) => amount(l.values[i]), numeric: true })),
  ];
}

function ratioColumns(periods: string[]): Column<Ratio>[] {
  return [
    { id: 'name', title: 'Ratio', value: (r) => r.name },
    { id: 'formula', title: 'Formula', value: (r) => r.formula },
    ...periods.map((p, i) => ({ id: `p${i}`, title: p, value: (r: Ratio) => r.values[i], render: (r: Ratio) => ratio(r.values[i], r.unit), numeric: true })),
  ];
}

/** One report: summary, findings with their numbers, recommendations, the chart, line items and ratios, and what could not be read. */
export function ReportBody({ report }: { report: AnalysisReport }) {
  const s = useStyles();
  const title = FOCUS_TITLES[report.focus_area] ?? report.focus_area;
  return (
    <div className={s.root}>
      <div className={s.section}>
        <Subtitle1 as="h3">{title}</Subtitle1>
        <Caption1 className={s.muted}>
          {report.file_name} · {report.periods.join(', ')}
        </Caption1>
        <Body1 as="p" className={s.summary}>
          {report.summary}
        </Body1>
      </div>
      {report.unreadable.length > 0 && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>What could not be read</MessageBarTitle>
            <ul className={s.list}>
              {report.unreadable.map((u) => (
                <li key={u}>{u}</li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
      <section className={s.section} aria-label="Findings">
        <Subtitle2 as="h4">Findings ({report.findings.length})</Subtitle2>
        {report.findings.length ? (
          <div className={s.findings}>
            {report.findings.map((f, i) => (
              <Panel key={i} className={s.finding} role="article" aria-label={f.title}>
                <div>
                  <Badge appearance="tint" color={SEVERITY_COLOURS[f.severity]}>
                    {f.severity}
                  </Badge>{' '}
                  <Subtitle2>{f.title}</Subtitle2>
                </div>
                <Body1>{f.detail}</Body1>
              </Panel>
            ))}
          </div>
        ) : (
          <Body1 className={s.muted}>No findings for this focus area.</Body1>
        )}
      </section>
      {report.recommendations.length > 0 && (
        <section className={s.section} aria-label="Recommendations">
          <Subtitle2 as="h4">Recommendations</Subtitle2>
          <ol className={s.list}>
            {report.recommendations.map((r) => (
              <li key={r}>
                <Body1>{r}</Body1>
              </li>
            ))}
          </ol>
        </section>
      )}
      {report.chart.series.length > 0 && (
        <section className={s.section} aria-label="Chart">
          <Subtitle2 as="h4">Main series</Subtitle2>
          <div className={s.chart} data-testid="report-chart">
            <Suspense fallback={<Spinner size="small" label="Loading chart..." />}>
              <PlotlyChart x={report.chart.x} series={report.chart.series} title={title} />
            </Suspense>
          </div>
        </section>
      )}
      <section className={s.section} aria-label="Line items">
        <Subtitle2 as="h4">Line items</Subtitle2>
        <SortableTable label="Line items table" columns={lineItemColumns(report.periods)} rows={report.lineItems} />
      </section>
      <section className={s.section} aria-label="Ratios">
        <Subtitle2 as="h4">Ratios</Subtitle2>
        <SortableTable label="Ratios table" columns={ratioColumns(report.periods)} rows={report.ratios} minWidth={640} />
      </section>
    </div>
  );
}

/** The test's reports: the saved focus area's first, the default analysis on a second tab when present. */
export function FinancialReport({ report }: { report: { default: AnalysisReport | null; custom_config: AnalysisReport } }) {
  const [tab, setTab] = useState<'custom_config' | 'default'>('custom_config');
  const shown = tab === 'default' && report.default ? report.default : report.custom_config;
  return (
    <section aria-label="Financial report" style={{ display: 'grid', gap: 12 }}>
      {report.default && (
        <RovingTabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as 'custom_config' | 'default')} aria-label="Report">
          <RovingTab value="custom_config">Custom config</RovingTab>
          <RovingTab value="default">Default</RovingTab>
        </RovingTabList>
      )}
      <ReportBody report={shown} />
    </section>
  );
}
