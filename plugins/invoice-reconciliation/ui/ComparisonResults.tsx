import { startTransition, useMemo, useState } from 'react';
import { Badge, Body1, Button, Caption1, Card, CardHeader, Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular } from '@fluentui/react-icons/svg/arrow-download';
import type { Discrepancy, UnmatchedRecord } from '../engine/matcher';
import type { EmailDraft } from '../engine/emails';
import { SortableTable, type Column, RovingTab, RovingTabList } from '../../../src/app';
import type { PagedComparison, PagedSide, RowTable, RowsPage, SideName } from '../paged';
import { PagedTable, type PageSort } from './PagedTable';

export type { SideName } from '../paged';
export type TableName = 'metadata' | 'discrepancies' | 'unmatched' | 'emails';
/** Loads a page of one table of a side from the kept result. */
export type LoadRows = (side: SideName, table: RowTable, offset: number, limit: number, sort: PageSort | undefined) => Promise<RowsPage<unknown>>;

const useStyles = makeStyles({
  root: { display: 'grid', gap: '16px' },
  stats: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: '8px' },
  stat: { padding: '10px 12px', borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground2, display: 'grid', gap: '2px' },
  statValue: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, fontVariantNumeric: 'tabular-nums' },
  downloads: { display: 'flex', flexWrap: 'wrap', gap: '8px' },
  section: { display: 'grid', gap: '8px' },
  emails: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 420px), 1fr))', gap: '12px' },
  body: { whiteSpace: 'pre-wrap', margin: 0, fontFamily: tokens.fontFamilyBase, fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  muted: { color: tokens.colorNeutralForeground3 },
});

const money = (v: number | string | null | undefined) =>
  typeof v === 'number' ? v.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : (v ?? '');
const value = (v: number | string | null | undefined) => (typeof v === 'number' ? v.toLocaleString('en-GB', { maximumFractionDigits: 4 }) : (v ?? ''));
const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

const DISCREPANCY_COLUMNS: Column<Discrepancy>[] = [
  { id: 'key', title: 'Key', value: (d) => d.key },
  { id: 'kind', title: 'Kind', value: (d) => d.kind.replace(/_/g, ' ') },
  { id: 'vendor', title: 'Vendor', value: (d) => d.vendor },
  { id: 'description', title: 'Description', value: (d) => d.description },
  { id: 'invoice_value', title: 'Invoice', value: (d) => d.invoice_value, render: (d) => value(d.invoice_value), numeric: true },
  { id: 'purchase_order_value', title: 'Purchase order', value: (d) => d.purchase_order_value, render: (d) => value(d.purchase_order_value), numeric: true },
  { id: 'delta', title: 'Delta', value: (d) => d.delta, render: (d) => value(d.delta), numeric: true },
  { id: 'invoice_row', title: 'Invoice row', value: (d) => d.invoice_row, numeric: true },
  { id: 'purchase_order_row', title: 'PO row', value: (d) => d.purchase_order_row, numeric: true },
  { id: 'message', title: 'Message', value: (d) => d.message, render: (d) => <span style={{ display: 'inline-block', minWidth: 260 }}>{d.message}</span> },
];

const UNMATCHED_COLUMNS: Column<UnmatchedRecord>[] = [
  { id: 'side', title: 'File', value: (u) => (u.side === 'invoice' ? 'Invoice' : 'Purchase order') },
  { id: 'key', title: 'Key', value: (u) => u.key },
  { id: 'row', title: 'Row', value: (u) => u.row, numeric: true },
  { id: 'vendor', title: 'Vendor', value: (u) => u.vendor },
  { id: 'description', title: 'Description', value: (u) => u.description },
  { id: 'total', title: 'Total', value: (u) => u.total, render: (u) => money(u.total), numeric: true },
  { id: 'reason', title: 'Reason', value: (u) => u.reason },
];

interface MetadataRow {
  name: string;
  value: string;
}
const METADATA_COLUMNS: Column<MetadataRow>[] = [
  { id: 'name', title: 'Measure', value: (m) => m.name },
  { id: 'value', title: 'Value', value: (m) => m.value },
];

function metadataRows(metadata: PagedSide['metadata']): MetadataRow[] {
  return Object.entries(metadata)
    .filter(([name]) => name !== 'vendors')
    .map(([name, v]) => ({ name: name.replace(/_/g, ' '), value: v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v) }));
}

const EMAIL_LABELS: Record<EmailDraft['type'], string> = { vendor_not_matched: 'Not matched', vendor_matched: 'Matched', internal_memo: 'Internal memo' };

function EmailCard({ email }: { email: EmailDraft }) {
  const s = useStyles();
  return (
    <Card appearance="outline" role="article" aria-label={email.subject}>
      <CardHeader
        header={<Subtitle2>{email.subject}</Subtitle2>}
        description={
          <Caption1 className={s.muted}>
            To {email.to}
            {email.tone ? ` · ${email.tone} tone` : ''}
          </Caption1>
        }
        action={
          <Badge
            style={{ whiteSpace: 'nowrap' }}
            appearance="tint"
            color={email.type === 'vendor_matched' ? 'success' : email.type === 'internal_memo' ? 'informative' : 'warning'}
          >
            {EMAIL_LABELS[email.type]}
          </Badge>
        }
      />
      <pre className={s.body}>{email.body}</pre>
    </Card>
  );
}

function Side({
  side,
  name,
  pageSize,
  loadRows,
  onDownload,
  downloading,
}: {
  side: PagedSide;
  name: SideName;
  pageSize: number;
  loadRows: LoadRows;
  onDownload: (side: SideName, format: 'csv' | 'xlsx', table?: TableName) => void;
  downloading: boolean;
}) {
  const s = useStyles();
  const m = side.metadata;
  // stable per side, so a table keeps its page until the side changes
  const loadDiscrepancies = useMemo(
    () => (offset: number, limit: number, sort: PageSort | undefined) => loadRows(name, 'discrepancies', offset, limit, sort) as Promise<RowsPage<Discrepancy>>,
    [loadRows, name],
  );
  const loadUnmatched = useMemo(
    () => (offset: number, limit: number, sort: PageSort | undefined) => loadRows(name, 'unmatched', offset, limit, sort) as Promise<RowsPage<UnmatchedRecord>>,
    [loadRows, name],
  );
  const stats: [string, string][] = [
    ['Invoice rows', m.invoice_rows.toLocaleString('en-GB')],
    ...(m.mode === 'reconciliation'
      ? ([
          ['Purchase-order rows', m.purchase_order_rows.toLocaleString('en-GB')],
          ['Matched rows', m.matched_rows.toLocaleString('en-GB')],
          ['Match rate', percent(m.match_rate)],
        ] as [string, string][])
      : []),
    ['Discrepancies', side.discrepancy_count.toLocaleString('en-GB')],
    ['Unmatched records', side.unmatched_count.toLocaleString('en-GB')],
    ['Total difference', money(m.total_difference) as string],
  ];
  const keys =
    m.mode === 'reconciliation'
      ? `Invoice key “${m.invoice_key}”, purchase-order key “${m.purchase_order_key}”`
      : `Invoice-only check on key “${m.invoice_key}”`;
  const dl = (format: 'csv' | 'xlsx', table?: TableName, label?: string) => (
    <Button size="small" icon={<ArrowDownload20Regular />} disabled={downloading} onClick={() => onDownload(name, format, table)}>
      {label}
    </Button>
  );
  return (
    <div className={s.root}>
      <Caption1 className={s.muted} data-testid="result-source">
        {keys} · {m.config_source === 'saved config' ? 'saved config' : 'detected from the headers'}
      </Caption1>
      <div className={s.stats} aria-label="Summary">
        {stats.map(([label, v]) => (
          <div key={label} className={s.stat}>
            <Caption1 className={s.muted}>{label}</Caption1>
            <span className={s.statValue}>{v}</span>
          </div>
        ))}
      </div>
      <div className={s.downloads} aria-label="Downloads">
        {dl('xlsx', undefined, 'Download XLSX')}
        {dl('csv', 'discrepancies', 'Discrepancies CSV')}
        {dl('csv', 'unmatched', 'Unmatched CSV')}
        {dl('csv', 'metadata', 'Metadata CSV')}
        {dl('csv', 'emails', 'E-mails CSV')}
      </div>
      <section className={s.section} aria-label="Discrepancies">
        <Subtitle2 as="h3">Discrepancies ({side.discrepancy_count.toLocaleString('en-GB')})</Subtitle2>
        <PagedTable
          key={`${name}-discrepancies`}
          label="Discrepancies table"
          columns={DISCREPANCY_COLUMNS}
          total={side.discrepancy_count}
          first={side.first.discrepancies}
          load={loadDiscrepancies}
          pageSize={pageSize}
          minWidth={1080}
          emptyText="No discrepancies: every matched line agrees."
        />
      </section>
      <section className={s.section} aria-label="Unmatched records">
        <Subtitle2 as="h3">Unmatched records ({side.unmatched_count.toLocaleString('en-GB')})</Subtitle2>
        <PagedTable
          key={`${name}-unmatched`}
          label="Unmatched records table"
          columns={UNMATCHED_COLUMNS}
          total={side.unmatched_count}
          first={side.first.unmatched}
          load={loadUnmatched}
          pageSize={pageSize}
          minWidth={760}
          emptyText="Every record found its counterpart."
        />
      </section>
      <section className={s.section} aria-label="E-mails">
        <Subtitle2 as="h3">E-mails ({side.emails.length})</Subtitle2>
        {side.emails.length ? (
          <div className={s.emails}>
            {side.emails.map((e, i) => (
              <EmailCard key={i} email={e} />
            ))}
          </div>
        ) : (
          <Body1 className={s.muted}>No e-mails: the config asks for none for this result.</Body1>
        )}
      </section>
      <section className={s.section} aria-label="Metadata">
        <Subtitle2 as="h3">Metadata</Subtitle2>
        <SortableTable label="Metadata table" columns={METADATA_COLUMNS} rows={metadataRows(m)} />
      </section>
    </div>
  );
}

/**
 * The comparison result: a tab per side (default, custom config), each with its tables (the long
 * ones a page at a time, from the result kept on the server), e-mails and downloads.
 */
export function ComparisonResults({
  result,
  loadRows,
  onDownload,
  downloading = false,
}: {
  result: PagedComparison;
  loadRows: LoadRows;
  onDownload: (side: SideName, format: 'csv' | 'xlsx', table?: TableName) => void;
  downloading?: boolean;
}) {
  const [tab, setTab] = useState<SideName>('custom_config');
  return (
    <section aria-label="Comparison results" style={{ display: 'grid', gap: 12 }}>
      <RovingTabList selectedValue={tab} onTabSelect={(_, d) => startTransition(() => setTab(d.value as SideName))} aria-label="Result">
        <RovingTab value="custom_config">Custom config</RovingTab>
        <RovingTab value="default">Default</RovingTab>
      </RovingTabList>
      <Text as="p" size={200} style={{ margin: 0, color: tokens.colorNeutralForeground3 }}>
        {tab === 'default' ? 'Keys detected from the header rows, default e-mail settings.' : 'Your saved config: keys, tones of voice and e-mail choices.'}
      </Text>
      <Side side={result[tab]} name={tab} pageSize={result.page_size} loadRows={loadRows} onDownload={onDownload} downloading={downloading} />
    </section>
  );
}
