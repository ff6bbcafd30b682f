import {
  Caption1,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { humaniseLabel, PagesRead } from '../../src/app';

export interface InvoiceFieldData {
  name: string;
  value: string | number | null;
  confidence: number | null;
}

export interface LineItemData {
  description: string;
  quantity?: number;
  unit_price?: number;
  amount?: number;
  confidence: number;
}

/** The part of the extract_data reply the result shows. */
export interface InvoiceResultData {
  fields: InvoiceFieldData[];
  line_items: LineItemData[];
  warnings: string[];
  ocr_pages?: number[];
  /** the pages in the file and the pages read: a notice says when a long document was cut */
  pages?: number;
  pages_read?: number;
  /** the e-invoice data the values were taken from: a PDF's attachment, or the XML file itself (`standalone`, with the PDF it may carry) */
  e_invoice?: EInvoiceInfo;
}

/** Below this confidence a value is marked "check this". */
export const LOW_CONFIDENCE = 0.6;
const AMOUNT_FIELDS = new Set(['subtotal', 'tax', 'total']);
export const NO_LINE_ITEMS = 'No line items were found.';

const useStyles = makeStyles({
  root: { display: 'grid', gap: '16px', minWidth: 0 },
  fields: {
    display: 'grid',
    gridTemplateColumns: 'minmax(120px, max-content) 1fr',
    margin: 0,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    '@media (max-width: 480px)': { gridTemplateColumns: '1fr' },
  },
  term: {
    padding: '8px 12px',
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground2,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    '@media (max-width: 480px)': { borderBottom: 'none', paddingBottom: 0 },
  },
  value: {
    margin: 0,
    padding: '8px 12px',
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'space-between',
    gap: '4px 12px',
    overflowWrap: 'anywhere',
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
  },
  missing: { color: tokens.colorNeutralForeground4, fontStyle: 'italic' },
  confidence: { color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap' },
  low: { color: tokens.colorPaletteDarkOrangeForeground1 },
  table: { minWidth: '560px' },
  // focusable, so a keyboard can scroll the table sideways on a narrow screen (axe: scrollable-region-focusable)
  tableWrap: {
    overflowX: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  number: { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
});

const money = (n: number | undefined) => (n === undefined ? '' : n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

function fieldText(f: InvoiceFieldData, currency: string | undefined): string {
  if (f.value === null) return 'Not found';
  if (typeof f.value === 'number' && AMOUNT_FIELDS.has(f.name)) return `${money(f.value)}${currency ? ` ${currency}` : ''}`;
  return String(f.value);
}

/** A confidence shown quietly: "92% sure", marked when it is low. */
function Confidence({ value }: { value: number | null }) {
  const s = useStyles();
  if (value === null) return null;
  const low = value < LOW_CONFIDENCE;
  return (
    <Caption1 className={mergeClasses(s.confidence, low && s.low)} title="How sure the reader is of this value">
      {low ? 'check: ' : ''}
      {Math.round(value * 100)}% sure
    </Caption1>
  );
}

type EInvoiceInfo = {
  format: string;
  attachment: string;
  standalone?: boolean;
  credit_note?: boolean;
  pdf?: { name: string; compared: boolean; why?: string };
};

/** What the notice says of an XML e-invoice read on its own: its standard, what its values were checked against. */
export function standaloneText(e: EInvoiceInfo): string {
  const what = `${e.attachment} is ${e.credit_note ? 'a credit note' : 'an e-invoice'} in ${e.format}: the values below are its data, checked against its own sums`;
  const checked = !e.pdf
    ? `${what}; it carries no page to compare them with.`
    : e.pdf.compared
      ? `${what} and against the page of the PDF it carries (${e.pdf.name}).`
      : `${what}. The PDF it carries (${e.pdf.name}) was not compared: ${e.pdf.why ?? 'it could not be read'}.`;
  return e.credit_note ? `${checked} Its amounts are shown negative.` : checked;
}

/**
 * The read invoice: a notice when its values came from the e-invoice data the PDF carries, a
 * warning when its totals disagree, its non-list fields under capitalised
 * labels (amounts with the currency, a missing field as "Not found"), each with its confidence,
 * and the line items as a table.
 */
export function InvoiceResult({ data }: { data: InvoiceResultData }) {
  const s = useStyles();
  const currency = data.fields.find((f) => f.name === 'currency')?.value;
  const code = typeof currency === 'string' ? currency : undefined;
  // no field and no line (a page with no readable text): the warnings say why, not "check these values"
  const nothingFound = data.fields.every((f) => f.value === null) && data.line_items.length === 0;
  return (
    <section className={s.root} aria-label="Extracted invoice">
      <PagesRead pages={data.pages} pagesRead={data.pages_read} />
      {data.e_invoice && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            {data.e_invoice.standalone ? (
              <>
                <MessageBarTitle>Read from the e-invoice file</MessageBarTitle>
                {standaloneText(data.e_invoice)}
              </>
            ) : (
              <>
                <MessageBarTitle>Read from the e-invoice data</MessageBarTitle>
                This PDF carries its invoice as {data.e_invoice.format} data ({data.e_invoice.attachment}): the values below were taken from it and checked
                against the page.
              </>
            )}
          </MessageBarBody>
        </MessageBar>
      )}
      {data.warnings.length > 0 && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>{nothingFound ? 'Nothing was found' : 'Check these values'}</MessageBarTitle>
            {data.warnings.join(' ')}
          </MessageBarBody>
        </MessageBar>
      )}
      <Subtitle2 as="h2">Invoice fields</Subtitle2>
      <dl className={s.fields}>
        {data.fields.map((f) => (
          <div key={f.name} style={{ display: 'contents' }}>
            <dt className={s.term}>{humaniseLabel(f.name)}</dt>
            <dd className={s.value} data-field={f.name}>
              <span className={f.value === null ? s.missing : undefined}>{fieldText(f, code)}</span>
              <Confidence value={f.confidence} />
            </dd>
          </div>
        ))}
      </dl>
      <Subtitle2 as="h2">Line items</Subtitle2>
      {data.line_items.length === 0 ? (
        <Caption1>{NO_LINE_ITEMS}</Caption1>
      ) : (
        <div className={s.tableWrap} tabIndex={0} role="region" aria-label="Line items table">
          <Table className={s.table} aria-label="Line items" size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Description</TableHeaderCell>
                <TableHeaderCell className={s.number}>Quantity</TableHeaderCell>
                <TableHeaderCell className={s.number}>Unit price</TableHeaderCell>
                <TableHeaderCell className={s.number}>Amount</TableHeaderCell>
                <TableHeaderCell className={s.number}>Confidence</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.line_items.map((item, i) => (
                <TableRow key={i}>
                  <TableCell>{item.description}</TableCell>
                  <TableCell className={s.number}>{item.quantity ?? ''}</TableCell>
                  <TableCell className={s.number}>{money(item.unit_price)}</TableCell>
                  <TableCell className={s.number}>{money(item.amount)}</TableCell>
                  <TableCell className={s.number}>
                    <Confidence value={item.confidence} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </section>
  );
}
