import { median } from '../layout/geometry';
import type { LayoutPhrase } from '../layout/types';
import { parseAmount, parseNumber } from './amount';
import { COLUMN_HEADERS } from './labels';

export interface LineItem {
  description: string;
  quantity?: number;
  unit_price?: number;
  amount?: number;
  /** 0..1: reading confidence, raised when quantity × unit price = amount. */
  confidence: number;
}

type Role = (typeof COLUMN_HEADERS)[number]['role'];

interface Column {
  role: Role;
  left: number;
  right: number;
  centre: number;
}

export interface LineItemTable {
  items: LineItem[];
  /** Phrases that belong to the table (header and rows): they are not labels or values elsewhere. */
  phrases: Set<LayoutPhrase>;
}

const TOTALS_ROW = /^(?:sub[\s-]?total|total|tax|vat|gst|amount\s*due|balance|grand\s*total|net\s*total|discount|shipping|freight|notes?|thank|payment|terms|(?:zwischen)?summe|netto(?:betrag)?\b|gesamt|umsatzsteuer|ust\b|mwst|brutto|rechnungsbetrag|belegsummen|zahlungs|montant|tva\b|sous-total|d[ée]tail\s*tva|subtotaal|totaal|btw\b|importe|iva\b|base\s*imponible|imponibile|totale)/i;

function roleOf(text: string): Role | undefined {
  const clean = text.replace(/[:.]$/, '').trim();
  return COLUMN_HEADERS.find((h) => h.pattern.test(clean))?.role;
}

/**
 * Finds the line-item table by its header row (Description/Item, Qty, Unit Price/Rate,
 * Amount/Total) and reads the rows under it, assigning each phrase to the column whose span
 * (header midpoints) holds its centre. A row without numbers continues the previous description;
 * the table ends at a totals row, a large vertical gap or the end of the page.
 */
export function findLineItems(linesByPage: LayoutPhrase[][][]): LineItemTable {
  const items: LineItem[] = [];
  const phrases = new Set<LayoutPhrase>();
  for (const lines of linesByPage) {
    const headerIndex = lines.findIndex((line) => {
      const roles = new Set(line.map((p) => roleOf(p.text)).filter((r) => r && r !== 'other'));
      return roles.has('description') && roles.has('amount') && roles.size >= 3;
    });
    if (headerIndex < 0) continue;
    const header = lines[headerIndex];
    const named = header
      .map((p) => ({ p, role: roleOf(p.text) }))
      .filter((h): h is { p: LayoutPhrase; role: Role } => h.role !== undefined)
      .sort((a, b) => a.p.x - b.p.x);
    const columns: Column[] = named.map((h, i) => {
      const prev = named[i - 1]?.p;
      const next = named[i + 1]?.p;
      return {
        role: h.role,
        left: prev ? (prev.x + prev.width + h.p.x) / 2 : -Infinity,
        right: next ? (h.p.x + h.p.width + next.x) / 2 : Infinity,
        centre: h.p.x + h.p.width / 2,
      };
    });
    header.forEach((p) => phrases.add(p));
    const lineHeight = median(header.map((p) => p.height)) || 10;
    let previousBottom = Math.max(...header.map((p) => p.y + p.height));
    let last: LineItem | undefined;
    for (let i = headerIndex + 1; i < lines.length; i++) {
      const row = lines[i];
      const top = Math.min(...row.map((p) => p.y));
      if (top - previousBottom > lineHeight * 4.5) break;
      const rowText = row.map((p) => p.text).join(' ');
      if (TOTALS_ROW.test(rowText.trim())) break;
      const cells: Partial<Record<Role, string>> = {};
      for (const p of row) {
        const c = p.x + p.width / 2;
        // A numeric cell goes by its centre; a wide description may start left of its header.
        const column =
          columns.find((col) => c >= col.left && c < col.right) ??
          columns.reduce((a, b) => (Math.abs(a.centre - c) < Math.abs(b.centre - c) ? a : b));
        if (column.role === 'other') continue;
        cells[column.role] = cells[column.role] ? `${cells[column.role]} ${p.text}` : p.text;
      }
      const amount = cells.amount ? parseAmount(cells.amount)?.value : undefined;
      const unitPrice = cells.unit_price ? parseAmount(cells.unit_price)?.value : undefined;
      // "20 Stk", "30 Meter", "25 Liter(s)", "3 Piece": the number before the unit.
      const quantity = cells.quantity ? parseNumber(/^[-\d.,\s']+/.exec(cells.quantity.trim())?.[0].trim() ?? '') : undefined;
      const hasNumbers = amount !== undefined || unitPrice !== undefined || quantity !== undefined;
      // A line's amount printed on the row under its description, quantity and price.
      if (last && last.amount === undefined && amount !== undefined && unitPrice === undefined && quantity === undefined) {
        last.amount = amount;
        const fits = last.quantity !== undefined && last.unit_price !== undefined && Math.abs(last.quantity * last.unit_price - amount) < 0.011 + Math.abs(amount) * 0.0005;
        last.confidence = Math.min(1, Math.min(last.confidence, ...row.map((p) => p.confidence)) * (fits ? 1 : 0.8));
        row.forEach((p) => phrases.add(p));
        previousBottom = Math.max(...row.map((p) => p.y + p.height));
        continue;
      }
      if (!hasNumbers) {
        // A wrapped description (or a note under the table): join it to the previous row.
        // Before the first row, the rest of a header written on several lines ("Art-Nr", "(Art)");
        // later, a note in a column that is not kept ("(GTIN)" under an article number).
        if ((!last && i - headerIndex <= 3) || Object.keys(cells).length === 0) {
          row.forEach((p) => phrases.add(p));
          continue;
        }
        if (last && cells.description && row.length === 1) {
          last.description = `${last.description} ${cells.description}`.trim();
          row.forEach((p) => phrases.add(p));
          previousBottom = Math.max(...row.map((p) => p.y + p.height));
          continue;
        }
        break;
      }
      const conf = Math.min(...row.map((p) => p.confidence));
      const consistent =
        quantity !== undefined && unitPrice !== undefined && amount !== undefined && Math.abs(quantity * unitPrice - amount) < 0.011 + Math.abs(amount) * 0.0005;
      last = {
        description: (cells.description ?? '').trim(),
        quantity,
        unit_price: unitPrice,
        amount,
        confidence: Math.min(1, conf * (consistent ? 1 : 0.8)),
      };
      items.push(last);
      row.forEach((p) => phrases.add(p));
      previousBottom = Math.max(...row.map((p) => p.y + p.height));
    }
  }
  // A line without an amount column: quantity × unit price.
  for (const item of items) {
    if (item.amount === undefined && item.quantity !== undefined && item.unit_price !== undefined) item.amount = Math.round(item.quantity * item.unit_price * 100) / 100;
  }
  return { items, phrases };
}
