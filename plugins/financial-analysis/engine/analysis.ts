/**
 * The financial-analysis report: line items, ratios by period, findings and recommendations for
 * the chosen focus area (each citing the numbers behind it), chart data of the main series, a
 * written summary through the text-generation interface, and a list of what could not be read.
 * Findings come from plain, documented thresholds an analyst would use; the focus area decides
 * which topics are covered and whether strengths, risks or both are reported.
 */
import type { TextGenerator, TextTask } from '../../../src/server';
import { computeRatios, RATIO_DEFINITIONS, type RatioId } from './ratios';
import { LINE_ITEM_NAMES, type LineItemId, type Statement } from './statement-reader';

export const FOCUS_AREAS = [
  'overall-financial-position',
  'risk-and-vulnerabilities',
  'opportunities-and-strengths',
  'cash-flow-management',
  'sales-and-income',
] as const;
export type FocusArea = (typeof FOCUS_AREAS)[number];

export function isFocusArea(value: unknown): value is FocusArea {
  return typeof value === 'string' && (FOCUS_AREAS as readonly string[]).includes(value);
}

type Topic = 'growth' | 'profitability' | 'liquidity' | 'leverage' | 'cash' | 'efficiency';
type Severity = 'strength' | 'opportunity' | 'info' | 'watch' | 'concern';

export interface Finding {
  topic: Topic;
  severity: Severity;
  title: string;
  /** The sentence with the numbers that support it. */
  detail: string;
  metric: RatioId | LineItemId;
  /** The values cited, by period. */
  values: { period: string; value: number }[];
}

export interface AnalysisReport {
  focus_area: FocusArea;
  file_name: string;
  periods: string[];
  lineItems: { id: LineItemId; name: string; label: string; values: (number | null)[]; derived?: string }[];
  ratios: { id: RatioId; name: string; formula: string; unit: 'percent' | 'times' | 'days'; values: (number | null)[] }[];
  findings: Finding[];
  recommendations: string[];
  summary: string;
  summary_source: 'template' | 'llm';
  chart: { x: string[]; series: { name: string; values: (number | null)[] }[] };
  unreadable: string[];
}

const FOCUS: Record<FocusArea, { title: string; topics: Topic[]; severities: Severity[]; chart: LineItemId[] }> = {
  'overall-financial-position': {
    title: 'Overall financial position',
    topics: ['growth', 'profitability', 'liquidity', 'leverage', 'cash', 'efficiency'],
    severities: ['strength', 'info', 'watch', 'concern'],
    chart: ['revenue', 'grossProfit', 'operatingIncome', 'netIncome'],
  },
  'risk-and-vulnerabilities': {
    title: 'Risks and vulnerabilities',
    topics: ['liquidity', 'leverage', 'cash', 'profitability', 'growth', 'efficiency'],
    severities: ['watch', 'concern'],
    chart: ['currentAssets', 'currentLiabilities', 'totalDebt', 'equity'],
  },
  'opportunities-and-strengths': {
    title: 'Opportunities and strengths',
    topics: ['growth', 'profitability', 'liquidity', 'leverage', 'cash', 'efficiency'],
    severities: ['strength', 'opportunity'],
    chart: ['revenue', 'grossProfit', 'netIncome', 'operatingCashFlow'],
  },
  'cash-flow-management': {
    title: 'Cash-flow management',
    topics: ['cash', 'liquidity', 'efficiency'],
    severities: ['strength', 'opportunity', 'info', 'watch', 'concern'],
    chart: ['cash', 'operatingCashFlow', 'netIncome', 'receivables', 'inventory'],
  },
  'sales-and-income': {
    title: 'Sales and income',
    topics: ['growth', 'profitability'],
    severities: ['strength', 'opportunity', 'info', 'watch', 'concern'],
    chart: ['revenue', 'costOfSales', 'grossProfit', 'operatingIncome', 'netIncome'],
  },
};

const SEVERITY_ORDER: Severity[] = ['concern', 'watch', 'opportunity', 'strength', 'info'];

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const points = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(1)} points`;
const times = (v: number) => `${v.toFixed(2)}×`;
const days = (v: number) => `${Math.round(v)} days`;
const money = (v: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: Math.abs(v) < 100 ? 2 : 0 }).format(v);

/** Index of the latest period where the series has a value, and the one before it. */
function latest(values: (number | null | undefined)[]): { at: number; prev: number } | undefined {
  for (let i = values.length - 1; i >= 0; i--) {
    if (typeof values[i] === 'number') {
      let prev = i - 1;
      while (prev >= 0 && typeof values[prev] !== 'number') prev--;
      return { at: i, prev };
    }
  }
  return undefined;
}

interface Rule {
  finding: Finding;
  recommendation?: string;
}

/** Applies the analyst's thresholds to every ratio and line item available. */
function evaluate(statement: Statement, ratios: Record<RatioId, (number | undefined)[]>): Rule[] {
  const P = statement.periods;
  const rules: Rule[] = [];
  const item = (id: LineItemId) => statement.items[id]?.values ?? [];
  const add = (
    topic: Topic,
    severity: Severity,
    metric: Finding['metric'],
    title: string,
    detail: string,
    cited: [number, number][],
    recommendation?: string,
  ) => rules.push({ finding: { topic, severity, metric, title, detail, values: cited.map(([i, value]) => ({ period: P[i], value })) }, recommendation });

  // Growth.
  const revenue = item('revenue');
  const g = latest(ratios.revenueGrowth);
  if (g) {
    const growth = ratios.revenueGrowth[g.at]!;
    const from = revenue[g.at - 1]!;
    const to = revenue[g.at]!;
    const first = revenue.findIndex((v) => typeof v === 'number');
    const cagr = g.at - first >= 2 && revenue[first]! > 0 && to > 0 ? Math.pow(to / revenue[first]!, 1 / (g.at - first)) - 1 : undefined;
    const trend = cagr !== undefined ? ` Over ${P[first]}–${P[g.at]} revenue grew ${pct(cagr)} a period on average.` : '';
    const detail = `Revenue went from ${money(from)} in ${P[g.at - 1]} to ${money(to)} in ${P[g.at]} (${growth >= 0 ? '+' : ''}${pct(growth)}).${trend}`;
    if (growth >= 0.1)
      add(
        'growth',
        'strength',
        'revenueGrowth',
        `Strong revenue growth of ${pct(growth)}`,
        detail,
        [
          [g.at - 1, from],
          [g.at, to],
        ],
        `Build on the ${pct(growth)} growth: make sure capacity, stock and working capital keep pace with sales.`,
      );
    else if (growth >= 0)
      add('growth', 'info', 'revenueGrowth', `Revenue growth of ${pct(growth)}`, detail, [
        [g.at - 1, from],
        [g.at, to],
      ]);
    else
      add(
        'growth',
        'concern',
        'revenueGrowth',
        `Revenue fell ${pct(-growth)}`,
        detail,
        [
          [g.at - 1, from],
          [g.at, to],
        ],
        `Find where the ${money(from - to)} of lost revenue went (customers, prices, volumes) and set a recovery target.`,
      );
  }

  // Profitability.
  const marginRule = (id: 'grossMargin' | 'operatingMargin' | 'netMargin', name: string, low: number, high: number) => {
    const l = latest(ratios[id]);
    if (!l) return;
    const now = ratios[id][l.at]!;
    const before = l.prev >= 0 ? ratios[id][l.prev] : undefined;
    const change = before !== undefined ? now - before : undefined;
    const detail = `${name} was ${pct(now)} in ${P[l.at]}${change !== undefined ? `, ${points(change)} from ${pct(before!)} in ${P[l.prev]}` : ''}.`;
    const cited: [number, number][] = [...(before !== undefined ? [[l.prev, before] as [number, number]] : []), [l.at, now]];
    if (now < 0)
      add(
        'profitability',
        'concern',
        id,
        `Negative ${name.toLowerCase()} (${pct(now)})`,
        detail,
        cited,
        `Return to a positive ${name.toLowerCase()}: review pricing and the largest cost lines; every point of margin is worth ${money((revenue[l.at] ?? 0) / 100)} at current revenue.`,
      );
    else if (change !== undefined && change <= -0.02)
      add(
        'profitability',
        'concern',
        id,
        `${name} down ${points(change).slice(1)}`,
        detail,
        cited,
        `Investigate the ${points(change).slice(1)} fall in ${name.toLowerCase()}: input costs, discounting or mix.`,
      );
    else if (now < low)
      add(
        'profitability',
        'watch',
        id,
        `Thin ${name.toLowerCase()} of ${pct(now)}`,
        detail,
        cited,
        `Lift ${name.toLowerCase()} above ${pct(low)} through pricing or cost control; at ${pct(now)} little absorbs a bad period.`,
      );
    else if (now >= high || (change !== undefined && change >= 0.02))
      add(
        'profitability',
        'strength',
        id,
        `${name} of ${pct(now)}${change !== undefined && change >= 0.02 ? `, up ${points(change).slice(1)}` : ''}`,
        detail,
        cited,
      );
    else add('profitability', 'info', id, `${name} of ${pct(now)}`, detail, cited);
  };
  marginRule('grossMargin', 'Gross margin', 0.2, 0.4);
  marginRule('operatingMargin', 'Operating margin', 0.05, 0.15);
  marginRule('netMargin', 'Net margin', 0.03, 0.1);

  // Liquidity.
  const cr = latest(ratios.currentRatio);
  if (cr) {
    const v = ratios.currentRatio[cr.at]!;
    const ca = item('currentAssets')[cr.at]!;
    const cl = item('currentLiabilities')[cr.at]!;
    const detail = `Current assets of ${money(ca)} against current liabilities of ${money(cl)} in ${P[cr.at]}: a current ratio of ${times(v)}.`;
    const cited: [number, number][] = [[cr.at, v]];
    if (v < 1)
      add(
        'liquidity',
        'concern',
        'currentRatio',
        `Current liabilities exceed current assets (${times(v)})`,
        detail,
        cited,
        `Close the ${money(cl - ca)} working-capital gap: extend supplier terms, convert short-term debt to long-term, or collect receivables faster.`,
      );
    else if (v < 1.5)
      add(
        'liquidity',
        'watch',
        'currentRatio',
        `Tight liquidity: current ratio ${times(v)}`,
        detail,
        cited,
        `Keep a cash buffer: a current ratio of ${times(v)} leaves little room for a late customer payment.`,
      );
    else if (v > 3)
      add(
        'liquidity',
        'opportunity',
        'currentRatio',
        `Ample liquidity (${times(v)}) that may be under-used`,
        detail,
        cited,
        `With a current ratio of ${times(v)}, consider putting surplus current assets to work (investment, debt repayment).`,
      );
    else add('liquidity', 'strength', 'currentRatio', `Healthy current ratio of ${times(v)}`, detail, cited);
  }
  const qr = latest(ratios.quickRatio);
  if (qr && statement.items.inventory) {
    const v = ratios.quickRatio[qr.at]!;
    const detail = `Without inventory of ${money(item('inventory')[qr.at] ?? 0)}, liquid current assets cover current liabilities ${times(v)} in ${P[qr.at]}.`;
    if (v < 0.7)
      add(
        'liquidity',
        'concern',
        'quickRatio',
        `Low quick ratio of ${times(v)}`,
        detail,
        [[qr.at, v]],
        'Reduce reliance on selling stock to pay bills: hold more cash or arrange a committed credit line.',
      );
    else if (v < 1)
      add(
        'liquidity',
        'watch',
        'quickRatio',
        `Quick ratio below 1 (${times(v)})`,
        detail,
        [[qr.at, v]],
        `Watch the quick ratio (${times(v)}): bills due within a year depend partly on selling inventory.`,
      );
    else add('liquidity', 'strength', 'quickRatio', `Quick ratio of ${times(v)}`, detail, [[qr.at, v]]);
  }

  // Leverage.
  const equity = item('equity');
  const eq = latest(equity);
  if (eq && equity[eq.at]! <= 0) {
    add(
      'leverage',
      'concern',
      'equity',
      'Negative equity',
      `Equity was ${money(equity[eq.at]!)} in ${P[eq.at]}: liabilities exceed assets.`,
      [[eq.at, equity[eq.at]!]],
      'Restore positive equity (retained profits, new capital or debt restructuring) before taking on more debt.',
    );
  }
  const de = latest(ratios.debtToEquity);
  if (de) {
    const v = ratios.debtToEquity[de.at]!;
    const detail = `Debt of ${money(item('totalDebt')[de.at]!)} against equity of ${money(equity[de.at]!)} in ${P[de.at]}: debt-to-equity ${times(v)}.`;
    if (v > 2)
      add(
        'leverage',
        'concern',
        'debtToEquity',
        `High leverage: debt-to-equity ${times(v)}`,
        detail,
        [[de.at, v]],
        `Bring debt-to-equity from ${times(v)} towards 1× by paying down debt from operating cash or retaining profits.`,
      );
    else if (v > 1)
      add(
        'leverage',
        'watch',
        'debtToEquity',
        `Debt exceeds equity (${times(v)})`,
        detail,
        [[de.at, v]],
        `Keep new borrowing modest: debt-to-equity is already ${times(v)}.`,
      );
    else if (v < 0.5)
      add(
        'leverage',
        'strength',
        'debtToEquity',
        `Low leverage (${times(v)}) leaves borrowing capacity`,
        detail,
        [[de.at, v]],
        `Debt-to-equity of ${times(v)} leaves room to fund growth with debt if returns exceed its cost.`,
      );
    else add('leverage', 'info', 'debtToEquity', `Moderate leverage: debt-to-equity ${times(v)}`, detail, [[de.at, v]]);
  }
  const ic = latest(ratios.interestCover);
  if (ic) {
    const v = ratios.interestCover[ic.at]!;
    const detail = `Operating income of ${money(item('operatingIncome')[ic.at]!)} covers interest of ${money(item('interestExpense')[ic.at]!)} ${times(v)} in ${P[ic.at]}.`;
    if (v < 1.5)
      add(
        'leverage',
        'concern',
        'interestCover',
        `Interest barely covered (${times(v)})`,
        detail,
        [[ic.at, v]],
        `Interest cover of ${times(v)} is below lenders' usual 1.5–3× covenants: refinance or reduce debt.`,
      );
    else if (v < 3)
      add(
        'leverage',
        'watch',
        'interestCover',
        `Modest interest cover of ${times(v)}`,
        detail,
        [[ic.at, v]],
        `Protect interest cover (${times(v)}): fix rates or reduce floating-rate debt before rates rise.`,
      );
    else if (v >= 5) add('leverage', 'strength', 'interestCover', `Comfortable interest cover of ${times(v)}`, detail, [[ic.at, v]]);
    else add('leverage', 'info', 'interestCover', `Interest cover of ${times(v)}`, detail, [[ic.at, v]]);
  }

  // Cash.
  const ocf = item('operatingCashFlow');
  const o = latest(ocf);
  if (o && ocf[o.at]! < 0)
    add(
      'cash',
      'concern',
      'operatingCashFlow',
      'Operations consumed cash',
      `Operating cash flow was ${money(ocf[o.at]!)} in ${P[o.at]}.`,
      [[o.at, ocf[o.at]!]],
      'Stop the operating cash outflow: tighten collections, slow inventory build-up and review payment terms.',
    );
  const cc = latest(ratios.cashConversion);
  if (cc) {
    const v = ratios.cashConversion[cc.at]!;
    const detail = `Operating cash flow of ${money(ocf[cc.at]!)} against net income of ${money(item('netIncome')[cc.at]!)} in ${P[cc.at]}: ${pct(v)} of profit turned into cash.`;
    if (v < 0.8)
      add(
        'cash',
        'concern',
        'cashConversion',
        `Weak cash conversion (${times(v)})`,
        detail,
        [[cc.at, v]],
        `Find why only ${pct(v)} of profit became cash: growing receivables or inventory usually explain it.`,
      );
    else if (v >= 1) add('cash', 'strength', 'cashConversion', `Profits backed by cash (${times(v)})`, detail, [[cc.at, v]]);
    else add('cash', 'info', 'cashConversion', `Cash conversion of ${times(v)}`, detail, [[cc.at, v]]);
  }
  const cash = item('cash');
  const c = latest(cash);
  if (c && c.prev >= 0 && cash[c.prev]! > 0) {
    const change = (cash[c.at]! - cash[c.prev]!) / cash[c.prev]!;
    const detail = `Cash went from ${money(cash[c.prev]!)} in ${P[c.prev]} to ${money(cash[c.at]!)} in ${P[c.at]} (${change >= 0 ? '+' : ''}${pct(change)}).`;
    if (change <= -0.2)
      add(
        'cash',
        'watch',
        'cash',
        `Cash down ${pct(-change)}`,
        detail,
        [
          [c.prev, cash[c.prev]!],
          [c.at, cash[c.at]!],
        ],
        `Prepare a 13-week cash forecast: cash fell by ${money(cash[c.prev]! - cash[c.at]!)} in one period.`,
      );
    else if (change >= 0.2)
      add('cash', 'strength', 'cash', `Cash up ${pct(change)}`, detail, [
        [c.prev, cash[c.prev]!],
        [c.at, cash[c.at]!],
      ]);
    else
      add('cash', 'info', 'cash', `Cash ${change >= 0 ? 'up' : 'down'} ${pct(Math.abs(change))}`, detail, [
        [c.prev, cash[c.prev]!],
        [c.at, cash[c.at]!],
      ]);
  }

  // Efficiency (working capital).
  const dso = latest(ratios.dso);
  if (dso) {
    const v = ratios.dso[dso.at]!;
    const before = dso.prev >= 0 ? ratios.dso[dso.prev] : undefined;
    const receivables = item('receivables')[dso.at]!;
    const release = receivables - (revenue[dso.at]! * 45) / 365;
    const detail = `Receivables of ${money(receivables)} are ${days(v)} of sales in ${P[dso.at]}${before !== undefined ? ` (${days(before)} in ${P[dso.prev]})` : ''}.`;
    const cited: [number, number][] = [...(before !== undefined ? [[dso.prev, before] as [number, number]] : []), [dso.at, v]];
    if (v > 60)
      add(
        'efficiency',
        'concern',
        'dso',
        `Slow collections: ${days(v)} sales outstanding`,
        detail,
        cited,
        `Bring DSO from ${days(v)} to 45 days: that would release about ${money(release)} of cash.`,
      );
    else if (v > 45 || (before !== undefined && v - before > 5))
      add(
        'efficiency',
        'watch',
        'dso',
        `Collections lengthening: ${days(v)} sales outstanding`,
        detail,
        cited,
        release > 0 ? `Tighten credit control: 45 days of sales outstanding would release about ${money(release)}.` : undefined,
      );
    else add('efficiency', 'strength', 'dso', `Prompt collections: ${days(v)} sales outstanding`, detail, cited);
    if (v > 45 && release > 0)
      add(
        'efficiency',
        'opportunity',
        'dso',
        `About ${money(release)} of cash tied up in receivables`,
        `${detail} At 45 days, receivables would be ${money(receivables - release)}.`,
        cited,
        `Collect faster (invoice promptly, chase at 30 days, offer e-payment): up to ${money(release)} of cash can be released.`,
      );
  }
  const dio = latest(ratios.dio);
  if (dio) {
    const v = ratios.dio[dio.at]!;
    const before = dio.prev >= 0 ? ratios.dio[dio.prev] : undefined;
    const inventory = item('inventory')[dio.at]!;
    const release = inventory - (item('costOfSales')[dio.at]! * 60) / 365;
    const detail = `Inventory of ${money(inventory)} is ${days(v)} of cost of sales in ${P[dio.at]}${before !== undefined ? ` (${days(before)} in ${P[dio.prev]})` : ''}.`;
    const cited: [number, number][] = [...(before !== undefined ? [[dio.prev, before] as [number, number]] : []), [dio.at, v]];
    if (v > 90)
      add(
        'efficiency',
        'concern',
        'dio',
        `Slow-moving inventory: ${days(v)} on hand`,
        detail,
        cited,
        `Reduce inventory from ${days(v)} towards 60 days: about ${money(release)} of cash would be freed.`,
      );
    else if (before !== undefined && v - before > 10)
      add(
        'efficiency',
        'watch',
        'dio',
        `Inventory building up: ${days(v)} on hand`,
        detail,
        cited,
        `Check purchasing against demand: inventory days rose from ${days(before)} to ${days(v)}.`,
      );
    else add('efficiency', 'info', 'dio', `Inventory of ${days(v)} on hand`, detail, cited);
    if (v > 60 && release > 0)
      add(
        'efficiency',
        'opportunity',
        'dio',
        `About ${money(release)} of cash tied up in inventory`,
        `${detail} At 60 days, inventory would be ${money(inventory - release)}.`,
        cited,
        `Trim slow-moving stock and reorder points: up to ${money(release)} of cash can be released.`,
      );
  }
  return rules;
}

function summaryTask(report: Omit<AnalysisReport, 'summary' | 'summary_source'>, focusTitle: string): TextTask {
  const concerns = report.findings.filter((f) => f.severity === 'concern' || f.severity === 'watch');
  const strengths = report.findings.filter((f) => f.severity === 'strength' || f.severity === 'opportunity');
  const range = report.periods.length > 1 ? `${report.periods[0]} to ${report.periods[report.periods.length - 1]}` : (report.periods[0] ?? 'the period given');
  const facts = report.findings.map((f) => `- [${f.severity}] ${f.title}: ${f.detail}`);
  const template = () => {
    const lines = [`${focusTitle} — ${report.file_name}, ${range}.`];
    if (!report.findings.length) lines.push('The statement did not contain the figures this focus area needs; see the list of what could not be read.');
    else {
      lines.push(
        `${report.findings.length} ${report.findings.length === 1 ? 'finding' : 'findings'}: ${strengths.length} ${strengths.length === 1 ? 'strength or opportunity' : 'strengths or opportunities'}, ${concerns.length} ${concerns.length === 1 ? 'point' : 'points'} to watch or act on.`,
      );
      for (const f of report.findings.slice(0, 3)) lines.push(`${f.title}. ${f.detail}`);
      if (report.recommendations.length) lines.push(`First step: ${report.recommendations[0]}`);
    }
    return lines.join('\n\n');
  };
  return {
    name: 'financial-analysis.summary',
    system:
      'You are a financial analyst writing a short executive summary for a business owner. Plain language, no jargon without explanation. Use only the figures given; do not invent any.',
    prompt: [
      `Focus area: ${focusTitle}. Statement: ${report.file_name}, periods ${report.periods.join(', ')}.`,
      'Findings:',
      ...facts,
      'Recommendations:',
      ...report.recommendations.map((r) => `- ${r}`),
      'Write a summary of 3 short paragraphs.',
    ].join('\n'),
    template,
    maxTokens: 600,
  };
}

/**
 * Builds the report for one focus area: every line item and ratio, the findings of the area's
 * topics (risks only, strengths only, or both), recommendations with numbers, chart series, a
 * summary written by the text generator, and what could not be read or computed.
 */
export async function analyseStatement(statement: Statement, focusArea: FocusArea, textGenerator: TextGenerator): Promise<AnalysisReport> {
  if (!isFocusArea(focusArea)) throw new RangeError(`The focus area must be one of ${FOCUS_AREAS.join(', ')}, not ${JSON.stringify(focusArea)}.`);
  const focus = FOCUS[focusArea];
  const ratios = computeRatios(statement);
  const rules = evaluate(statement, ratios)
    .filter((r) => focus.topics.includes(r.finding.topic) && focus.severities.includes(r.finding.severity))
    .sort(
      (a, b) =>
        SEVERITY_ORDER.indexOf(a.finding.severity) - SEVERITY_ORDER.indexOf(b.finding.severity) ||
        focus.topics.indexOf(a.finding.topic) - focus.topics.indexOf(b.finding.topic),
    );
  const findings = rules.map((r) => r.finding);
  if (!findings.length && focusArea === 'risk-and-vulnerabilities' && Object.values(ratios).some((v) => v.some((x) => x !== undefined))) {
    findings.push({
      topic: 'liquidity',
      severity: 'info',
      metric: 'currentRatio',
      title: 'No material risk indicators',
      detail:
        'None of the computed ratios crossed the usual warning thresholds (current ratio below 1.5, debt-to-equity above 1, interest cover below 3, cash conversion below 0.8, DSO above 45 days).',
      values: [],
    });
  }
  const recommendations = [...new Set(rules.map((r) => r.recommendation).filter((r): r is string => Boolean(r)))].slice(0, 8);

  const unreadable = [...statement.unreadable];
  for (const def of RATIO_DEFINITIONS) {
    if (ratios[def.id].every((v) => v === undefined)) {
      const missing = def.needs.filter((id) => !statement.items[id]).map((id) => LINE_ITEM_NAMES[id].toLowerCase());
      unreadable.push(
        `${def.name} could not be computed: ${missing.length ? `no ${missing.join(' or ')} line` : def.id === 'revenueGrowth' ? 'it needs at least two periods' : 'the inputs are zero or negative'}.`,
      );
    }
  }

  const base = {
    focus_area: focusArea,
    file_name: statement.fileName,
    periods: statement.periods,
    lineItems: (Object.entries(statement.items) as [LineItemId, NonNullable<Statement['items'][LineItemId]>][]).map(([id, item]) => ({
      id,
      name: LINE_ITEM_NAMES[id],
      label: item.label,
      values: item.values,
      ...(item.derived ? { derived: item.derived } : {}),
    })),
    ratios: RATIO_DEFINITIONS.map((def) => ({
      id: def.id,
      name: def.name,
      formula: def.formula,
      unit: def.unit,
      values: ratios[def.id].map((v) => (v === undefined ? null : Math.round(v * 10000) / 10000)),
    })),
    findings,
    recommendations,
    chart: {
      x: statement.periods,
      series: focus.chart.filter((id) => statement.items[id]).map((id) => ({ name: LINE_ITEM_NAMES[id], values: statement.items[id]!.values })),
    },
    unreadable,
  };
  const generated = await textGenerator.generate(summaryTask(base, focus.title));
  return { ...base, summary: generated.text, summary_source: generated.source };
}
