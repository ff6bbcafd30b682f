import { median } from '../layout/geometry';
import type { LayoutPhrase, LayoutWord } from '../layout/types';
import { cents, findAmounts, parseAmount, parseNumber } from './amount';
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
  /**
   * Other readings of the same rows, for the caller to choose by the subtotal: rows with an amount
   * alone (an allowance, a charge, a line without quantity or price) read as lines of their own,
   * or as notes on the line above. Only readings that differ from `items` are listed.
   */
  alternatives: LineItem[][];
}

/** How rows with an amount alone are read: as the table's other lines suggest, always as lines, or always as notes. */
type AmountOnlyRows = 'auto' | 'lines' | 'notes';

/**
 * A row that ends a line table: totals, taxes, notes and the like. The English words must end
 * there ("Taxi ride", "Totalschaden" and "Discounted rate" are lines; French "Taxe" ends one), except
 * before a digit ("Total19%"); a label set between stars or rules ("**BALANCE**") too.
 */
const TOTALS_ROW =
  /^[*=~]{0,4}\s*(?:(?:sub[\s-]?totals?|totals?(?:betrag|summe)?|tax(?:es?)?|vat|gst|amount\s*due|to\s*pay|sum|balance|grand\s*total|net\s*total|discounts?|shipping|freight|notes?|thanks?|payments?|terms)(?![a-zà-ÿ])|(?:zwischen)?summe|netto(?:betrag)?\b|gesamt|umsatzsteuer|ust\b|mwst|brutto(?!preis)|rechnungs(?:end)?betrag|endbetrag|belegsummen|zahlungs|montant|somme\b|tva\b|sous-total|d[ée]tail\s*tva|subtotaal|totaal|btw\b|importe|iva\b|igic\b|resumen|retenci[óo]n|base\s*imponible|imponibile|totale|\d{1,2}(?:[.,]\d{1,2})?\s*%\s*(?:mwst|ust|vat|tva|btw|iva|tax|gst)\b)/i;

/**
 * A line's tax detail on the row under it, not a line: a Mexican CFDI's "Traslado 002 - IVA
 * $360,000.00" and "Retención 001 - ISR $247,500.00".
 */
const TAX_DETAIL_ROW = /^(?:traslado|retenci[óo]n)\s+\d{3}\b/i;

/** A carried-forward row at a page's foot ("Übertrag", "Carried forward", "À reporter"): the table goes on over the page. */
const CARRY_ROW = /^(?:[üu]bertrag|vortrag|carried\s*(?:forward|over)|brought\s*forward|[àa]\s*reporter|riporto|suma\s*y\s*sigue)\b/i;

/** A cell that is one number, perhaps with a currency or a unit of a letter or two: "1.234,56 €", "EUR 12.00", "(5.00)", "5,00-", "0,0205". */
const NUMERIC_CELL = /^(?:[A-Z]{3}\s?|[$€£¥])?[-−(]?\s?\d[\d.,'\u00a0\u202f ]*[)-]?\s?(?:[A-Z]{3}|[$€£¥]|%)?$/;

/** A header's tax qualifier: "Unit Price Excl. VAT", "Positionsbetrag ohne USt.". */
const TAX_QUALIFIER =
  /\s*\(?\s*\b(?:excl?\.?|exkl\.?|ekskl\.?|excluding|incl?\.?|inkl\.?|including|ohne|zzgl\.?|hors|zonder|sin|senza)\s*(?:vat|tax|taxes|ust|mwst|btw|tva|iva|gst|mva|moms)\.?\s*\)?$/i;

function roleOf(text: string): Role | undefined {
  const clean = text.replace(/[:.]$/, '').trim();
  const find = (t: string) => COLUMN_HEADERS.find((h) => h.pattern.test(t))?.role;
  return find(clean) ?? (TAX_QUALIFIER.test(clean) ? find(clean.replace(TAX_QUALIFIER, '').trim()) : undefined);
}

/** A heading's piece of a header line: its text, where it stands, and the column it names. */
interface HeadingPiece {
  text: string;
  x: number;
  width: number;
  role: Role | undefined;
}

/**
 * Headings run together into one phrase ("UNIT PRICE QUANTITY TOTAL PRICE", "Item Product"): the
 * fewest pieces, split at words, that each name a column; undefined when the phrase names one
 * column as it stands or cannot be split so.
 */
function headingPieces(p: LayoutPhrase): HeadingPiece[] | undefined {
  const w = p.words;
  if (w.length < 2 || roleOf(p.text) !== undefined) return undefined;
  const piece = (from: number, to: number): HeadingPiece => {
    const text = w
      .slice(from, to)
      .map((x) => x.text)
      .join(' ');
    return { text, x: w[from].x, width: w[to - 1].x + w[to - 1].width - w[from].x, role: roleOf(text) };
  };
  // best[i]: the fewest pieces that cover the first i words, each naming a column
  const best: Array<HeadingPiece[] | undefined> = [[]];
  for (let to = 1; to <= w.length; to++)
    for (let from = 0; from < to; from++) {
      const before = best[from];
      if (!before) continue;
      const next = piece(from, to);
      if (next.role !== undefined && (!best[to] || before.length + 1 < best[to]!.length)) best[to] = [...before, next];
    }
  const pieces = best[w.length];
  return pieces && pieces.length >= 2 ? pieces : undefined;
}

/** A header line's headings left to right, with headings run together split into their pieces (see headingPieces). */
function headingsOf(line: readonly LayoutPhrase[]): HeadingPiece[] {
  return line.flatMap((p) => headingPieces(p) ?? [{ text: p.text, x: p.x, width: p.width, role: roleOf(p.text) }]);
}

/** One column's heading: its text (on one line or several) and its horizontal extent. */
interface HeaderCell {
  role: Role | undefined;
  x: number;
  right: number;
  phrases: LayoutPhrase[];
}

/**
 * The columns of a header row at `lines[k]`, with the words written above or below a heading on
 * other lines joined to it ("Unit Price Excl." over "VAT"; "Positions-" / "betrag" / "ohne" /
 * "USt." beside a one-line header), and a heading run together with its neighbour split in two
 * when both halves are headings ("VAT % Line Amount Excl. VAT"). `last` is the lowest line used.
 */
function headerCells(lines: LayoutPhrase[][], k: number): { cells: HeaderCell[]; last: number } {
  const line = lines[k];
  const lh = median(line.map((p) => p.height)) || 10;
  const top = Math.min(...line.map((p) => p.y));
  const stacks: Array<{ phrases: LayoutPhrase[]; x: number; right: number; main?: LayoutPhrase }> = line.map((p) => ({
    phrases: [p],
    x: p.x,
    right: p.x + p.width,
    main: p,
  }));
  let last = k;
  for (let j = Math.max(0, k - 3); j <= Math.min(lines.length - 1, k + 3); j++) {
    // headings hold no digits: a line with one is a row of the table (or something else)
    if (j === k || lines[j].length === 0 || lines[j].some((p) => /\d/.test(p.text))) continue;
    if (Math.abs(Math.min(...lines[j].map((p) => p.y)) - top) > 2.6 * lh) continue;
    for (const q of lines[j]) {
      const over = stacks.filter((c) => q.x < c.right && q.x + q.width > c.x);
      if (over.length > 1) continue;
      const stack = over[0] ?? (stacks.push({ phrases: [], x: q.x, right: q.x + q.width }), stacks[stacks.length - 1]);
      stack.phrases.push(q);
      stack.x = Math.min(stack.x, q.x);
      stack.right = Math.max(stack.right, q.x + q.width);
      if (j > k) last = Math.max(last, j);
    }
  }
  const cells: HeaderCell[] = [];
  for (const stack of stacks) {
    const ordered = [...stack.phrases].sort((a, b) => a.y - b.y || a.x - b.x);
    const text = ordered.map((p) => p.text).reduce((acc, t) => (acc === '' ? t : /\p{L}-$/u.test(acc) ? acc.slice(0, -1) + t : `${acc} ${t}`), '');
    // A heading that names a kept column on the header line keeps that name whatever stands
    // over or under it ("Ligne CODE ARTICLE, NOM & DESIGNATION" over "FACT REFERENCE"); "VAT"
    // under "Unit Price Excl." is the end of that heading.
    const own = stack.main ? roleOf(stack.main.text) : undefined;
    const role = (own && own !== 'other' ? own : undefined) ?? roleOf(text) ?? own;
    const single = stack.phrases.length === 1 ? stack.phrases[0] : undefined;
    const pieces = role === undefined && single ? headingPieces(single) : undefined;
    if (pieces) {
      cells.push(...pieces.map((piece) => ({ role: piece.role, x: piece.x, right: piece.x + piece.width, phrases: [single!] })));
      continue;
    }
    cells.push({ role, x: stack.x, right: stack.right, phrases: stack.phrases });
  }
  return { cells: cells.sort((a, b) => a.x - b.x), last };
}

/** True when a cell holds a word (letters, no digits): "1 GLN:5987854125" holds none. */
const hasWords = (text: string | undefined) => text !== undefined && text.split(/\s+/).some((w) => /^\p{L}{2,}[.,:;]?$/u.test(w));

interface RowRead {
  cells: Partial<Record<Role, string>>;
  /** A position number left of the description: the row opens a position. */
  newPosition: boolean;
  /** An amount in a column that is not kept (a folio's "Credits" or "Payments"). */
  otherAmount: boolean;
  amount?: number;
  unitPrice?: number;
  quantity?: number;
  /** A discount in per cent, from a discount column ("10%"). */
  discount?: number;
}

/** One row's cells by column, and its numbers. */
function readRow(row: LayoutPhrase[], columns: Column[], description: Column | undefined): RowRead {
  const cells: Partial<Record<Role, string>> = {};
  let newPosition = false;
  let otherAmount = false;
  for (const p of row.flatMap((q) => splitAcrossColumns(q, columns, description))) {
    const c = p.x + p.width / 2;
    // A numeric cell goes by its centre; a wide description may start left of its header.
    let column = columns.find((col) => c >= col.left && c < col.right) ?? columns.reduce((a, b) => (Math.abs(a.centre - c) < Math.abs(b.centre - c) ? a : b));
    // Text that starts in the description column and is not a number is description, however
    // far right it reaches ("Gültig ab 20.09.2018 15:39 Uhr bis …" under a price header).
    if (
      description &&
      column.role !== 'description' &&
      ((p.x >= description.left && p.x < description.right && !NUMERIC_CELL.test(p.text.trim())) || p.description)
    )
      column = description;
    // Words in a column not kept that reach into the description's ("Habitación" set left of a
    // "Concepto" heading) are description too, when the row has none yet.
    if (description && column.role === 'other' && !cells.description && hasWords(p.text) && p.x + p.width > description.left && p.x < description.right)
      column = description;
    if (column.role === 'other') {
      // "2 | Inklusiv-Kilometer waren: 873": a position number left of the description opens a position.
      if (description && p.x + p.width <= description.left + 1 && /^\d{1,4}$/.test(p.text.trim())) newPosition = true;
      // an amount in a column not kept ("Credits", "Payments": a payment on a hotel folio)
      if (NUMERIC_CELL.test(p.text.trim()) && /\d[.,\s]\d{2}\D{0,4}$/.test(p.text.trim())) otherAmount = true;
      continue;
    }
    cells[column.role] = cells[column.role] ? `${cells[column.role]} ${p.text}` : p.text;
  }
  // A price or amount cell holds a number (with its currency), not words that happen to contain one.
  // (OCR may read a ruled line beside a number as "]" or "|": "217,80]")
  const numeric = (raw: string | undefined) => {
    const text = raw?.trim().replace(/(\d)[\]|]+$/, '$1');
    return text !== undefined && NUMERIC_CELL.test(text) ? parseAmount(text)?.value : undefined;
  };
  // "20 Stk", "30 Meter", "25 Liter(s)", "3 Piece": the number before the unit.
  // "C. CONCEPTO" over "1 Capuccino": a till prints the count at the description's start, under the
  // narrow count heading's right edge; with a count column and nothing in it, that is the count.
  // (only on a priced row: "200 mm" under "Kabelbinder, schwarz," goes on with its description)
  // "2 x Priority Boarding", "3× Espresso": a count with its multiplication sign, on any priced row.
  const counted =
    !cells.quantity && (cells.amount || cells.unit_price)
      ? (/^(\d{1,3})\s*[x×]\s+(?=\p{L})/u.exec(cells.description ?? '') ??
        (columns.some((c) => c.role === 'quantity') ? /^(\d{1,3})\s+(?=\p{L})/u.exec(cells.description ?? '') : null))
      : null;
  if (counted) {
    cells.quantity = counted[1];
    cells.description = cells.description!.slice(counted[0].length);
  }
  const quantity = cells.quantity ? (hoursOf(cells.quantity) ?? parseNumber(/^[-\d.,\s']+/.exec(cells.quantity.trim())?.[0].trim() ?? '')) : undefined;
  const off = /^-?\s?(\d{1,2}(?:[.,]\d+)?)\s?%$/.exec(cells.discount?.trim() ?? '');
  const discount = off ? Number(off[1].replace(',', '.')) : undefined;
  return { cells, newPosition, otherAmount, amount: numeric(cells.amount), unitPrice: numeric(cells.unit_price), quantity, discount: discount || undefined };
}

/** A row's text cut where its columns part; `description` when it is known to be the description's. */
interface RowPiece {
  x: number;
  width: number;
  text: string;
  description?: boolean;
}

/**
 * A phrase of numbers set close together across two columns ("60,00 10,00%": an amount and a
 * tax rate; "3,00 € 3,00 €": a price and an amount, each with its sign) is one cell per number,
 * each in the column of its centre; so are the numbers at the end of a phrase of words that stand
 * in other columns than its words, the last in the amount's ("Zumo de naranja natural 2,95 € 2,95
 * €" under "CONCEPTO | PRECIO IMPORTE", set close together on a till slip).
 */
function splitAcrossColumns(p: LayoutPhrase, columns: Column[], description: Column | undefined): RowPiece[] {
  const columnOf = (x: number) => columns.findIndex((col) => x >= col.left && x < col.right);
  return splitAtDescription(p, description).flatMap((piece) => {
    const words = p.words.filter((w) => w.x >= piece.x - 0.5 && w.x + w.width <= piece.x + piece.width + 0.5);
    // a currency sign or code set apart after its number belongs to it
    const tokens: RowPiece[] = [];
    for (const w of words) {
      const last = tokens[tokens.length - 1];
      if (last && /^(?:[$€£¥]|EUR|USD|GBP|CHF)$/.test(w.text) && /\d$/.test(last.text))
        tokens[tokens.length - 1] = { ...last, width: w.x + w.width - last.x, text: `${last.text} ${w.text}` };
      else tokens.push({ x: w.x, width: w.width, text: w.text });
    }
    let k = tokens.length;
    while (k > 0 && NUMERIC_CELL.test(tokens[k - 1].text)) k--;
    const numbers = tokens.slice(k);
    if (numbers.length === 0 || tokens.length < 2) return [piece];
    const at = numbers.map((t) => columnOf(t.x + t.width / 2));
    if (k === 0) return new Set(at).size < 2 ? [piece] : numbers;
    // words, then numbers in columns of their own (neither the words' column nor the description's),
    // the last in the amount's ("Bruttopreis : 0,0520" under a position is a note with a price)
    const head = tokens.slice(0, k);
    const headColumn = columnOf(head[0].x);
    if (at.some((c) => c < 0 || c === headColumn || columns[c] === description) || columns[at[at.length - 1]].role !== 'amount') return [piece];
    const text = head.map((t) => t.text).join(' ');
    return [{ x: head[0].x, width: head[k - 1].x + head[k - 1].width - head[0].x, text, description: piece.description }, ...numbers];
  });
}

/**
 * A phrase that starts left of the description column and runs into it ("4260331811362 Muster":
 * an article number and the end of a description set close together) is two cells: the words
 * that start inside the description column are description.
 */
function splitAtDescription(p: LayoutPhrase, description: Column | undefined): RowPiece[] {
  if (!description || p.x >= description.left || p.x + p.width <= description.left) return [p];
  // A centred heading leaves the column's left edge right of where its text starts: a count or
  // an article number before words ("3 unid Stock útiles y papelería") ends where the words begin.
  const lead = p.words.findIndex((w, i) => !(NUMERIC_CELL.test(w.text) || ID_CELL.test(w.text) || (i > 0 && UNIT_WORD.test(w.text))));
  const at = lead > 0 && p.words[lead].x < description.left ? lead : p.words.findIndex((w) => w.x >= description.left);
  if (at <= 0) return [p];
  const piece = (words: LayoutPhrase['words']) => ({
    x: words[0].x,
    width: words[words.length - 1].x + words[words.length - 1].width - words[0].x,
    text: words.map((w) => w.text).join(' '),
  });
  return [piece(p.words.slice(0, at)), { ...piece(p.words.slice(at)), description: true }];
}

const keptRoles = (roles: Array<Role | undefined>) => new Set(roles.filter((r) => r && r !== 'other' && r !== 'discount'));
/**
 * A line table's header: a description, an amount and a third column kept (a quantity, a price);
 * or a description and an amount among three or more headings the vocabulary knows ("Nº |
 * Concepto | Base Imponible | % IGIC | Cuota IGIC": lines with an amount alone).
 */
const isHeader = (roles: Set<Role | undefined>, known = 0) => roles.has('description') && roles.has('amount') && (roles.size >= 3 || known >= 3);

/**
 * The roles of a header line's headings, left to right (`line` sorted by x). A heading the
 * vocabulary does not know, the last of a line that has a description, a quantity and a unit
 * price but no amount, right of the price, is the amount ("GESSAMTPRES" as printed, "Sum EUR"
 * as OCR reads it).
 */
function headerRoles(line: readonly HeadingPiece[]): Array<Role | undefined> {
  const roles = line.map((p) => p.role);
  const last = roles.length - 1;
  const price = roles.lastIndexOf('unit_price');
  if (
    last > 0 &&
    roles[last] === undefined &&
    price >= 0 &&
    price < last &&
    !roles.includes('amount') &&
    roles.includes('description') &&
    roles.includes('quantity') &&
    /^\p{L}[\p{L}\s.-]{2,}$/u.test(line[last].text.trim())
  )
    roles[last] = 'amount';
  return roles;
}

/**
 * Settles the roles of a header's columns, left to right: with two amount headings and no
 * quantity, the left one counts the units ("Amount | Product | VAT | Price | Total"); with two
 * price headings and no amount, the right one is the line's amount ("Prix unitaire | … | Prix HT");
 * with one price heading and no amount nor quantity, the price is the amount.
 */
function settleRoles(roles: Array<Role | undefined>): Array<Role | undefined> {
  const out = [...roles];
  const at = (role: Role) => out.flatMap((r, i) => (r === role ? [i] : []));
  if (at('amount').length > 1 && at('quantity').length === 0) out[at('amount')[0]] = 'quantity';
  const prices = at('unit_price');
  if (prices.length > 1 && at('amount').length === 0) out[prices[prices.length - 1]] = 'amount';
  // A price and no count beside it: the line's price is its amount ("Pos. Beschreibung | Preis").
  if (prices.length === 1 && at('amount').length === 0 && at('quantity').length === 0) out[prices[0]] = 'amount';
  return out;
}

/** A table's columns as its header row sets them. */
interface TableLayout {
  columns: Column[];
  description: Column | undefined;
  lineHeight: number;
}

/**
 * The header row of a page's line table: one line naming the columns (completed by headings
 * written over or under it, "Prix" / "unitaire", when those add a column), or failing that a line
 * naming the description whose other headings are on the lines just above or below it.
 */
function findHeader(lines: LayoutPhrase[][]): { layout: TableLayout; header: LayoutPhrase[]; firstRow: number } | undefined {
  const rolesOf = (cells: Array<{ role: Role | undefined }>) => keptRoles(settleRoles(cells.map((c) => c.role)));
  let headerIndex = -1;
  let stacked: { cells: HeaderCell[]; last: number } | undefined;
  for (let k = 0; k < lines.length && headerIndex < 0; k++) {
    const line = [...lines[k]].sort((a, b) => a.x - b.x);
    const headings = headingsOf(line);
    const named = headerRoles(headings);
    const direct = rolesOf(named.map((role) => ({ role })));
    // A line of headings alone, two or more, among them a description and an amount ("Description |
    // Amount", a hotel folio's "Date | Description | Charges | Credits"), is a header too.
    const headingsAlone = named.length >= 2 && line.every((p) => !/\d/.test(p.text) && p.text.trim().split(/\s+/).length <= 3);
    if (isHeader(direct, named.filter(Boolean).length) || (headingsAlone && isHeader(direct, 3))) {
      headerIndex = k;
      // Headings over or under the line may add a column it lacks ("Prix" / "unitaire").
      const found = headerCells(lines, k);
      const roles = rolesOf(found.cells);
      if ([...direct].every((r) => roles.has(r)) && roles.size > direct.size) stacked = found;
      continue;
    }
    if (!headings.some((p) => p.role === 'description')) continue;
    const found = headerCells(lines, k);
    if (!isHeader(rolesOf(found.cells))) continue;
    headerIndex = k;
    stacked = found;
  }
  if (headerIndex < 0) return undefined;
  const header = stacked ? [...new Set(stacked.cells.flatMap((c) => c.phrases))] : lines[headerIndex];
  const headings = headingsOf([...header].sort((a, b) => a.x - b.x));
  const cells = stacked
    ? stacked.cells.map((c) => ({ p: { x: c.x, width: c.right - c.x }, role: c.role ?? ('other' as Role) }))
    : // a heading the vocabulary does not know ("Periode van", "Shipment Date") still bounds its neighbours: its cells are no one else's
      headerRoles(headings).map((role, i) => ({ p: { x: headings[i].x, width: headings[i].width }, role: role ?? ('other' as Role) }));
  const named = cells.filter((h): h is { p: { x: number; width: number }; role: Role } => h.role !== undefined).sort((a, b) => a.p.x - b.p.x);
  const settled = settleRoles(named.map((h) => h.role));
  named.forEach((h, i) => (h.role = settled[i] ?? h.role));
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
  return {
    layout: { columns, description: columns.find((col) => col.role === 'description'), lineHeight: median(header.map((p) => p.height)) || 10 },
    header,
    firstRow: (stacked?.last ?? headerIndex) + 1,
  };
}

/** A time tracker's quantity, a duration ("05:58 h", "1:30", "02:15:00 Std."), in hours (to four decimals). */
export function hoursOf(text: string): number | undefined {
  const m = /^(\d{1,4}):([0-5]\d)(?::([0-5]\d))?\s*(?:h|hrs?|std\.?|stunden|hours?)?$/i.exec(text.trim());
  if (!m) return undefined;
  return Math.round((Number(m[1]) + Number(m[2]) / 60 + Number(m[3] ?? 0) / 3600) * 10000) / 10000;
}

/** |quantity × price| = |amount| to the cent (a credit note prints its amounts negative). */
export const fits = (quantity: number, price: number, amount: number) =>
  Math.abs(Math.abs(quantity * price) - Math.abs(amount)) < 0.011 + Math.abs(amount) * 0.0005;

/** A row's text, its phrases left to right. */
const textOf = (row: LayoutPhrase[]) =>
  row
    .map((p) => p.text)
    .join(' ')
    .trim();

/** A number printed in a table row, where it stands, and the column its centre falls in. */
interface RowNumber {
  x: number;
  value: number;
  /**
   * "1,000" or "2.500" read with three decimals (1 and 2.5), as quantities are often printed;
   * the value reads it as thousands. Arithmetic tells which the row means.
   */
  decimal?: number;
  role: Role | undefined;
  /** Written with a unit ("2 Stk", "10h", "3 pcs"): a count, never a price or an amount. */
  counted: boolean;
}

/** A count's unit after its number: "2 Stk", "1,5 h", "3 pcs", "10 x", "4 m²". */
const UNIT_WORD =
  /^(?:stk|st|stck|stück|pcs?|pieces?|pce|ea|each|h|hrs?|std|stunden?|hours?|tage?|days?|kg|g|t|m|m2|m²|m3|m³|km|l|ltr|x|u|ud|uds|unit[eé]s?|units?|pz|pezzi|stuks?|unid)\.?$/i;
/** "1,000" / "2.500" (one separator, three digits after it, no currency): also a number with three decimals. */
function threeDecimals(raw: string): number | undefined {
  const m = /^(\d{1,3})[.,](\d{3})$/.exec(raw.trim());
  return m && m[1] !== '0' ? Number(`${m[1]}.${m[2]}`) : undefined;
}

/** A number grouped in thousands by spaces ("1 234,56 €"). */
const SPACE_GROUPED = /^[^\d]*\d{1,3}(?: \d{3})+(?:[.,]\d{1,4})?[^\d]*$/;
const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;
const UNIT_ATTACHED = /^(\d+(?:[.,]\d+)?)(?:stk|pcs?|h|hrs?|std|kg|m|l|x|pce|ea)\.?$/i;

/**
 * The numbers of a row outside its description, left to right: a cell of one number ("1.234,56
 * €"), the numbers among a cell's words ("2 Stk", "€ 31,00"); a rate in per cent, a date or a
 * number inside the description's words are not among them.
 */
function rowNumbers(row: LayoutPhrase[], columns: Column[], description: Column | undefined): RowNumber[] {
  const out: RowNumber[] = [];
  const roleAt = (c: number) =>
    columns.length
      ? (columns.find((col) => c >= col.left && c < col.right) ?? columns.reduce((a, b) => (Math.abs(a.centre - c) < Math.abs(b.centre - c) ? a : b))).role
      : undefined;
  for (const p of row) {
    const text = p.text.trim();
    const c = p.x + p.width / 2;
    // "29,98 1": an amount and a tax class set close together are two numbers (not "1 234,56", one number).
    const several = p.words.length > 1 && findAmounts(text).length > 1 && !SPACE_GROUPED.test(text);
    if (NUMERIC_CELL.test(text) && !DATE_LIKE.test(text) && !several) {
      const a = /%$/.test(text) ? undefined : parseAmount(text);
      if (a) out.push({ x: c, value: a.value, decimal: threeDecimals(a.raw), role: roleAt(c), counted: false });
      continue;
    }
    // Words in the description column are the description's ("Ballons ~ 2000ml", "Abo 12 Monate").
    if (description && p.x >= description.left && p.x < description.right && /\p{L}{2}/u.test(text)) continue;
    const words = p.words;
    for (const [i, w] of words.entries()) {
      const next = words[i + 1]?.text ?? '';
      const wc = w.x + w.width / 2;
      const attached = UNIT_ATTACHED.exec(w.text);
      if (attached) {
        const n = parseNumber(attached[1]);
        if (n !== undefined) out.push({ x: wc, value: n, decimal: threeDecimals(attached[1]), role: roleAt(wc), counted: true });
        continue;
      }
      if (!NUMERIC_CELL.test(w.text) || DATE_LIKE.test(w.text) || /%$/.test(w.text) || /^%/.test(next)) continue;
      const a = parseAmount(w.text);
      if (a) out.push({ x: wc, value: a.value, decimal: threeDecimals(a.raw), role: roleAt(wc), counted: UNIT_WORD.test(next) });
    }
  }
  return out.sort((a, b) => a.x - b.x);
}

/** True when rank `a` comes before rank `b`, compared entry by entry. */
const before = (a: number[], b: number[]) => {
  const i = a.findIndex((x, k) => x !== b[k]);
  return i >= 0 && a[i] < b[i];
};

/**
 * The row's quantity, unit price and amount chosen by arithmetic: three of its numbers where
 * quantity × unit price = amount, the amount right of the other two. Among several, the one whose
 * numbers stand in the columns their headings name wins, then a count written with a unit as the
 * quantity, then the numbers as printed over their three-decimal reading, then a whole number as
 * the quantity, then the amount furthest right. Undefined when none fits, or when the amount is
 * 0 (which any quantity fits) unless a count written with its unit stands before a price of 0.
 * `left` is where the leftmost of the three stands (the centre of the quantity's or price's cell).
 */
export function arithmeticRead(numbers: readonly RowNumber[]): { quantity: number; unitPrice: number; amount: number; left: number } | undefined {
  let best: { quantity: number; unitPrice: number; amount: number; left: number; rank: number[] } | undefined;
  const decimals = (n: number) => (Number.isInteger(n) ? 0 : 1);
  const readings = (n: RowNumber) => (n.decimal === undefined ? [n.value] : [n.value, n.decimal]);
  for (const a of numbers) {
    if (a.counted) continue;
    for (const q of numbers) {
      // An amount of 0 fits any quantity: only a count with its unit ("10,0000 Stk.") at a price of 0 (a free line).
      if (q === a || q.x >= a.x || q.value <= 0 || (a.value === 0 && !q.counted)) continue;
      for (const p of numbers) {
        if (p === a || p === q || p.counted || p.x >= a.x || (a.value === 0 && p.value !== 0)) continue;
        for (const qv of readings(q))
          for (const pv of readings(p)) {
            if (!fits(qv, pv, a.value)) continue;
            const agree = Number(a.role === 'amount') + Number(q.role === 'quantity') + Number(p.role === 'unit_price');
            // the plain reading of the numbers before their three-decimal one
            const plain = Number(qv === q.value) + Number(pv === p.value);
            const rank = [agree, Number(q.counted) - Number(p.counted), plain, decimals(pv) - decimals(qv), a.x];
            if (!best || before(best.rank, rank)) best = { quantity: qv, unitPrice: pv, amount: a.value, left: Math.min(q.x, p.x), rank };
          }
      }
    }
  }
  return best && { quantity: best.quantity, unitPrice: best.unitPrice, amount: best.amount, left: best.left };
}

/** The lines' amounts added up, to the cent (a line without an amount adds nothing). */
export const sumOf = (list: readonly LineItem[]) => cents(list.reduce((a, i) => a + (i.amount ?? 0), 0));

/** True when a row read by its columns has a quantity, a unit price and an amount that multiply out. */
const readsAsLine = (r: RowRead) =>
  r.quantity !== undefined && r.unitPrice !== undefined && r.amount !== undefined && r.amount !== 0 && fits(r.quantity, r.unitPrice, r.amount);

/** "2 x 4,99", "200 Stk. à 0,15", "3 @ 4.00", "1,5 h × 68,00": a count, its unit, a sign, a price. */
const TIMES_RE = /(?<![\d.,])(\d+(?:[.,]\d{1,3})?)\s*(?:[\p{L}.]{1,6}\s*)?(?:x|×|@|à|a)\s*(?:[$€£]\s?)?(\d+(?:[.,]\d{1,4})?)(?![\d.,]*\d)/giu;

/**
 * A count and a unit price written at the end of a receipt row's name ("Gurken mini 0,89 x 2",
 * "Cola 2 x 1,29") that make `amount`: the name without them, the count and the price (a price
 * is written with cents, a count without).
 */
function writtenTimes(text: string, amount: number): { description: string; quantity: number; unitPrice: number } | undefined {
  const m = /^(.*\p{L}.*?)\s+(\d{1,4}(?:[.,]\d{1,3})?)\.?\s*(?:stk\.?|st\.?|pcs?\.?|kg)?\s*[x×*]\s*(\d{1,4}(?:[.,]\d{1,3})?)$/iu.exec(text.trim());
  if (!m) return undefined;
  let quantity = parseNumber(m[2]);
  let unitPrice = parseNumber(m[3]);
  if (quantity === undefined || unitPrice === undefined || !fits(quantity, unitPrice, amount)) return undefined;
  // "0,89 x 2": the price first
  if (/[.,]\d{2}$/.test(m[2]) && /^\d+$/.test(m[3])) [quantity, unitPrice] = [unitPrice, quantity];
  return { description: m[1].trim(), quantity, unitPrice };
}

/** A quantity and unit price written in a description that make `amount`, or undefined. */
function inDescription(text: string, amount: number): { quantity: number; unitPrice: number } | undefined {
  for (const m of text.matchAll(TIMES_RE)) {
    const quantity = parseNumber(m[1]);
    const unitPrice = parseNumber(m[2]);
    if (quantity !== undefined && unitPrice !== undefined && quantity > 0 && amount !== 0 && fits(quantity, unitPrice, amount)) return { quantity, unitPrice };
  }
  return undefined;
}

/** Why the rows of a table stopped: a totals row, a wide gap, a row that is no part of it, or the end of the page. */
type TableEnd = 'totals' | 'gap' | 'other' | 'page';

/**
 * Reads the rows of a table from `lines[from]` on, assigning each phrase to the column whose span
 * (header midpoints) holds its centre. A row without numbers continues the previous description;
 * the table ends at a totals row, a large vertical gap or the end of the page. Returns where
 * and why it ended.
 */
function readRows(
  lines: LayoutPhrase[][],
  from: number,
  layout: TableLayout,
  items: LineItem[],
  phrases: Set<LayoutPhrase>,
  previousBottomAtStart: number,
  amountOnlyRows: AmountOnlyRows = 'auto',
): { end: TableEnd; lastLine: number } {
  const { columns, description, lineHeight } = layout;
  let previousBottom = previousBottomAtStart;
  let last: LineItem | undefined;
  let pending: string | undefined;
  let lastLine = from - 1;
  let firstGap = 0;
  /** After a row whose amount stands in a column not kept (a payment): no description goes on. */
  let detached = false;
  const bottomOf = (row: LayoutPhrase[]) => Math.max(...row.map((p) => p.y + p.height));
  for (let i = from; i < lines.length; i++) {
    const row = lines[i];
    if (row.length === 0) continue;
    const top = Math.min(...row.map((p) => p.y));
    // An airy table (rows set far apart, as far as the header is from the first row) ends at a
    // gap wider than twice that spacing; a dense one at a gap of four and a half lines.
    if (top - previousBottom > Math.max(lineHeight * 4.5, 2 * firstGap)) return { end: 'gap', lastLine };
    if (items.length === 0 && !pending) firstGap = Math.max(0, top - previousBottomAtStart);
    const rowText = row.map((p) => p.text).join(' ');
    if (CARRY_ROW.test(rowText.trim())) {
      row.forEach((p) => phrases.add(p));
      return { end: 'page', lastLine: i };
    }
    // A row that starts like a totals row but reads as a line ("Shipping | 1 | 9.90 | 9.90",
    // "Discount voucher | 2 | -5.00 | -10.00": quantity × unit price = amount in their columns) is a line.
    if (TAX_DETAIL_ROW.test(rowText.trim())) {
      row.forEach((p) => phrases.add(p));
      previousBottom = bottomOf(row);
      lastLine = i;
      continue;
    }
    if (TOTALS_ROW.test(rowText.trim()) && !readsAsLine(readRow(row, columns, description))) return { end: 'totals', lastLine };
    // A totals label right of the descriptions ("Método de pago … Subtotal: $2,269,400.00"): the table's end too.
    if (description && row.some((p) => p.x > description.right && TOTALS_ROW.test(p.text.trim())) && !readsAsLine(readRow(row, columns, description)))
      return { end: 'totals', lastLine };
    const read = readRow(row, columns, description);
    const { cells, newPosition, discount } = read;
    let { amount, unitPrice, quantity } = read;
    // Numbers that do not multiply out as their columns say (or a column left empty): the
    // row's own numbers where quantity × unit price = amount, whatever columns they stand in.
    const net = discount !== undefined && unitPrice !== undefined ? unitPrice * (1 - discount / 100) : undefined;
    const consistentAsRead =
      quantity !== undefined &&
      amount !== undefined &&
      ((unitPrice !== undefined && fits(quantity, unitPrice, amount)) || (net !== undefined && fits(quantity, net, amount)));
    if (!consistentAsRead && (hasWords(cells.description) || pending || quantity !== undefined)) {
      const byArithmetic = arithmeticRead(rowNumbers(row, columns, description));
      if (byArithmetic) ({ quantity, unitPrice, amount } = byArithmetic);
    }
    const hasNumbers = amount !== undefined || unitPrice !== undefined || quantity !== undefined;
    // An amount alone under two or more lines that is their sum ("19.40" over a receipt's
    // "TOTAL", the label a little lower): the table's total, left for the totals; the table ends.
    if (
      !cells.description &&
      !pending &&
      quantity === undefined &&
      unitPrice === undefined &&
      amount !== undefined &&
      items.length >= 2 &&
      items.every((it) => it.amount !== undefined) &&
      Math.abs(sumOf(items) - amount) < 0.005
    )
      return { end: 'totals', lastLine };
    // A line's amount printed on the row under its description, quantity and price.
    if (last && last.amount === undefined && amount !== undefined && unitPrice === undefined && quantity === undefined) {
      last.amount = amount;
      const ok = last.quantity !== undefined && last.unit_price !== undefined && fits(last.quantity, last.unit_price, amount);
      last.confidence = Math.min(1, Math.min(last.confidence, ...row.map((p) => p.confidence)) * (ok ? 1 : 0.8));
      row.forEach((p) => phrases.add(p));
      previousBottom = bottomOf(row);
      lastLine = i;
      continue;
    }
    // Neither a description nor a quantity: a number under a line (a discount's base, a
    // price basis) is not a line of its own. Nor is a price alone beside words, in a table
    // that has amounts ("Bruttopreis : 5,5000" under a line).
    const partial = !cells.description && quantity === undefined;
    const priceOnly = amount === undefined && quantity === undefined && columns.some((col) => col.role === 'amount');
    // Under lines that all print a quantity and a price, a row with an amount alone is an
    // allowance or a charge on the line above ("Abschlag Direktbelieferung … -50,00"), not a line.
    const amountOnly =
      quantity === undefined &&
      unitPrice === undefined &&
      items.length > 0 &&
      (amountOnlyRows === 'notes'
        ? columns.some((col) => col.role === 'quantity' || col.role === 'unit_price')
        : amountOnlyRows === 'auto' &&
          columns.some((col) => col.role === 'quantity') &&
          columns.some((col) => col.role === 'unit_price') &&
          items.every((it) => it.quantity !== undefined && it.unit_price !== undefined));
    // A row whose only amount stands in a column not kept (a payment on a folio): no line, and no
    // wrapped description either.
    if (!hasNumbers && read.otherAmount && last) {
      row.forEach((p) => phrases.add(p));
      previousBottom = bottomOf(row);
      lastLine = i;
      // what follows it (a card's number) goes on no line's description
      detached = true;
      continue;
    }
    if (!hasNumbers || (last && (partial || priceOnly || amountOnly))) {
      // A wrapped description (or a note under the table): join it to the previous row.
      // Before the first row, the rest of a header written on several lines ("Art-Nr", "(Art)");
      // later, a note in a column that is not kept ("(GTIN)" under an article number).
      // A description on the row above its numbers ("PRESTATION SUPPORT - Description" over
      // "1 | GLN… | 60,00 | PCE | 1,00 | 60,00"): it is the next line's, when that row has
      // numbers and no description of its own, or when the two are set less than a line apart
      // (a description block centred on its numbers row, over "2 | # ligne BC: 3 | 10,00 | …").
      if (cells.description && !newPosition && i + 1 < lines.length && lines[i + 1].length) {
        const next = readRow(lines[i + 1], columns, description);
        const nextTop = Math.min(...lines[i + 1].map((p) => p.y));
        const gap = nextTop - bottomOf(row);
        if (
          (!hasWords(next.cells.description) || gap < 0) &&
          next.quantity !== undefined &&
          (next.amount !== undefined || next.unitPrice !== undefined) &&
          gap < lineHeight
        ) {
          pending = pending ? `${pending} ${cells.description}` : cells.description;
          row.forEach((p) => phrases.add(p));
          previousBottom = bottomOf(row);
          lastLine = i;
          continue;
        }
      }
      if ((!last && i - from <= 2) || Object.keys(cells).length === 0) {
        row.forEach((p) => phrases.add(p));
        continue;
      }
      if (last && cells.description && !newPosition && !detached) {
        last.description = `${last.description} ${cells.description}`.trim();
        row.forEach((p) => phrases.add(p));
        previousBottom = bottomOf(row);
        lastLine = i;
        continue;
      }
      // A position without prices, or notes in other columns ("CO-123/V2A", "Preisbasis:"):
      // part of the table but no line. Only a position keeps the table going (the bottom of a
      // note is not kept, so a run of notes ends the table).
      if (last) {
        row.forEach((p) => phrases.add(p));
        if (newPosition) {
          previousBottom = bottomOf(row);
          lastLine = i;
        }
        continue;
      }
      return { end: 'other', lastLine };
    }
    const conf = Math.min(...row.map((p) => p.confidence));
    let price = unitPrice;
    // "5 | 4,55 € | 10% | -20,48 €": a discount in its own column; the net unit price is the
    // price less the discount, when that is what makes the amount.
    if (discount !== undefined && quantity !== undefined && price !== undefined && amount !== undefined && !fits(quantity, price, amount)) {
      const net = Math.round(price * (1 - discount / 100) * 10_000) / 10_000;
      if (fits(quantity, net, amount)) price = net;
    }
    // "Papier A4, 2 x 4,99", "Schrauben 200 Stk. à 0,15", "3 @ 4.00": a quantity and unit price
    // written in the description, when they make the amount.
    if (amount !== undefined && (quantity === undefined || price === undefined)) {
      const said = inDescription(`${pending ?? ''} ${cells.description ?? ''}`, amount);
      if (said) ({ quantity, unitPrice: price } = said);
    }
    const consistent = quantity !== undefined && price !== undefined && amount !== undefined && fits(quantity, price, amount);
    last = {
      description: `${pending ?? ''} ${cells.description ?? ''}`.trim(),
      quantity,
      unit_price: price,
      amount,
      confidence: Math.min(1, conf * (consistent ? 1 : 0.8)),
    };
    pending = undefined;
    detached = false;
    items.push(last);
    row.forEach((p) => phrases.add(p));
    previousBottom = bottomOf(row);
    lastLine = i;
  }
  return { end: 'page', lastLine };
}

/**
 * Where a table carried over from the page before goes on, on a page with no header of its own:
 * the first row, above any totals row, that has a description and at least two of quantity,
 * unit price and amount in the carried columns (the page's letterhead and "Page 2 of 3" above it
 * are skipped).
 */
function continuationStart(lines: LayoutPhrase[][], layout: TableLayout, phrases: Set<LayoutPhrase>): number {
  for (let i = 0; i < lines.length; i++) {
    const row = lines[i];
    if (row.length === 0) continue;
    const text = textOf(row);
    // "Übertrag 1.234,00" at the head of the page: part of the table, no line.
    if (CARRY_ROW.test(text)) {
      row.forEach((p) => phrases.add(p));
      continue;
    }
    if (TOTALS_ROW.test(text)) return -1;
    const r = readRow(row, layout.columns, layout.description);
    const numbers = [r.amount, r.unitPrice, r.quantity].filter((n) => n !== undefined).length;
    if (numbers >= 2 && hasWords(r.cells.description)) return i;
  }
  return -1;
}

/**
 * Finds the line-item table by its header row (Description/Item, Qty, Unit Price/Rate,
 * Amount/Total) and reads the rows under it (see readRows). A table that runs to the bottom of a
 * page with no totals under it goes on on the next page, in the same columns, when that page has
 * no header of its own.
 */
export function findLineItems(linesByPage: LayoutPhrase[][][]): LineItemTable {
  const { items, phrases } = readTables(linesByPage, 'auto');
  // No header row the vocabulary knows: the rows whose own numbers multiply out, or failing
  // those, a till receipt's rows of words and one amount (for the caller to check by the totals).
  if (items.length === 0) {
    const multiplied = rowsByArithmetic(linesByPage);
    return { items: multiplied, phrases, alternatives: receiptRows(linesByPage) };
  }
  const key = (list: LineItem[]) => list.map((i) => `${i.amount}|${i.quantity}|${i.unit_price}`).join(';');
  // Readings for the caller to choose by the subtotal: amount-only rows as lines, as notes, and
  // every row whose numbers multiply out, whatever the header says.
  const alternatives = [...(['lines', 'notes'] as const).map((mode) => readTables(linesByPage, mode).items), rowsByArithmetic(linesByPage)]
    .filter((list) => list.length > 0)
    .filter((list, i, all) => key(list) !== key(items) && all.findIndex((other) => key(other) === key(list)) === i);
  return { items, phrases, alternatives };
}

/** Reads every page's table (see findLineItems), rows with an amount alone read as `amountOnlyRows` says. */
function readTables(linesByPage: LayoutPhrase[][][], amountOnlyRows: AmountOnlyRows): { items: LineItem[]; phrases: Set<LayoutPhrase> } {
  const items: LineItem[] = [];
  const phrases = new Set<LayoutPhrase>();
  let carried: TableLayout | undefined;
  for (const lines of linesByPage) {
    const found = findHeader(lines);
    let layout: TableLayout;
    let from: number;
    let top: number;
    if (found) {
      layout = found.layout;
      found.header.forEach((p) => phrases.add(p));
      from = found.firstRow;
      top = Math.max(...found.header.map((p) => p.y + p.height));
    } else if (carried) {
      layout = carried;
      from = continuationStart(lines, layout, phrases);
      if (from < 0) {
        carried = undefined;
        continue;
      }
      top = Math.min(...lines[from].map((p) => p.y));
    } else continue;
    const before = items.length;
    const { end, lastLine } = readRows(lines, from, layout, items, phrases, top, amountOnlyRows);
    // Totals anywhere under the table on its page: the table ends here.
    const totalsBelow = lines.slice(lastLine + 1).some((line) => line.some((p) => TOTALS_ROW.test(p.text.trim())));
    carried = items.length > before && end !== 'totals' && !totalsBelow ? layout : undefined;
  }
  // A line without an amount column: quantity × unit price; a line whose price cell is empty: amount ÷ quantity (less sure).
  for (const item of items) {
    if (item.amount === undefined && item.quantity !== undefined && item.unit_price !== undefined)
      item.amount = Math.round(item.quantity * item.unit_price * 100) / 100;
    else if (item.unit_price === undefined && item.amount !== undefined && item.quantity) {
      item.unit_price = Math.round((item.amount / item.quantity) * 10_000) / 10_000;
      item.confidence = Math.min(item.confidence, 0.8);
    }
  }
  return { items, phrases };
}

/**
 * Line items of a table whose header the vocabulary does not know: every row with words on its
 * left and three numbers on its right where quantity × unit price = amount (see arithmeticRead),
 * above any totals row; a line of words only, set under such a row and starting where its
 * description starts, goes on with that description. Less sure than a table read by its header.
 */
export function rowsByArithmetic(linesByPage: LayoutPhrase[][][]): LineItem[] {
  const items: LineItem[] = [];
  for (const lines of linesByPage) {
    let last: { item: LineItem; x: number; bottom: number; height: number } | undefined;
    const below = new Set<LayoutPhrase[]>();
    for (const row of lines) {
      if (row.length === 0 || below.has(row)) continue;
      const text = textOf(row);
      if (TOTALS_ROW.test(text)) {
        if (items.length) break;
        continue;
      }
      const top = Math.min(...row.map((p) => p.y));
      const numbers = rowNumbers(row, [], undefined);
      const read = numbers.length >= 3 ? arithmeticRead(numbers) : undefined;
      // The name is left of the numbers that multiply out, after any number of its own (an article
      // number before it: "4711  Widget  2  3,00  6,00").
      const first = read?.left ?? numbers[0]?.x ?? Infinity;
      let words = row.filter((p) => p.x + p.width / 2 < first && hasWords(p.text) && !NUMERIC_CELL.test(p.text.trim()));
      // An article number and the numbers on one row, the article's name on the row under it (a till receipt).
      const next = lines.slice(lines.indexOf(row) + 1).find((l) => l.some((p) => /[\p{L}\p{N}]{2}/u.test(p.text)));
      const lh = median(row.map((p) => p.height)) || 10;
      // The name row may start with the buyer's article number ("K4321  Bierbrau Pils 20/0500") and
      // hold numbers of its own ("Mischpalette Joghurt Karton 3 x 20"), but no priced line, no amount.
      if (
        read &&
        !words.length &&
        next &&
        Math.min(...next.map((p) => p.y)) - Math.max(...row.map((p) => p.y + p.height)) < lh * 1.5 &&
        next.some((p) => /\p{L}{2}/u.test(p.text)) &&
        next.every((p) => /\p{L}{2}/u.test(p.text) || ID_CELL.test(p.text.trim())) &&
        !arithmeticRead(rowNumbers(next, [], undefined)) &&
        !next.some((p) => RECEIPT_AMOUNT.test(p.text.trim()))
      ) {
        words = next.filter((p) => /\p{L}{2}/u.test(p.text));
        below.add(next);
      }
      if (read && words.length) {
        const item: LineItem = {
          // (a name's phrase that OCR ran on into the count and price, "V.E. Alaus laisk 1.00 3.65", gives its words left of them)
          description: words
            .map((p) =>
              row.includes(p) && p.x + p.width > first
                ? p.words
                    .filter((w) => w.x + w.width / 2 < first)
                    .map((w) => w.text)
                    .join(' ') || p.text
                : p.text,
            )
            .join(' '),
          quantity: read.quantity,
          unit_price: read.unitPrice,
          amount: read.amount,
          confidence: Math.min(0.8, ...row.map((p) => p.confidence)),
        };
        items.push(item);
        last = { item, x: words[0].x, bottom: Math.max(...row.map((p) => p.y + p.height)), height: median(row.map((p) => p.height)) || 10 };
        continue;
      }
      // Words alone under a line, in its description's place: the description goes on.
      if (last && numbers.length === 0 && top - last.bottom < last.height && Math.abs(row[0].x - last.x) < last.height && row.every((p) => hasWords(p.text))) {
        last.item.description = `${last.item.description} ${text}`;
        last.bottom = Math.max(...row.map((p) => p.y + p.height));
        continue;
      }
      last = undefined;
    }
  }
  return items;
}

/** An article or customer number standing alone before a name ("K4321", "4711"). */
const ID_CELL = /^[A-Z]{0,3}-?\d{3,14}$/;

/** A price with cents as receipts print it ("1,99", "1.129,00", "1'299.00"), as a RegExp source. */
const PRICE = String.raw`\d{1,3}(?:[.,'\u00a0]\d{3})*[.,]\d{2}`;
/** An amount with cents at the end of a receipt row ("1,99", "-0,25", "$1,998.00", "12.50-", "200,00€", "EUR2.00"). */
const RECEIPT_AMOUNT = new RegExp(`^-?(?:[$€£]|EUR|USD|GBP)?-?${PRICE}-?(?:\\s?[$€£])?$`);
/**
 * What may follow a receipt row's amount: its tax class ("A", "1", "*", "AW"; a US slip's one-letter
 * flag, "S", "T", "F", "N", "X", and "§" for an "S" OCR misread), or its currency, with a mark of OCR noise beside it ("«0").
 */
const RECEIPT_TAIL = /^[^\p{L}\p{N}\s]{0,2}(?:[A-Z0-9*§]|EUR|€|[A-D][A-Z0-9*]?)[^\p{L}\p{N}\s]{0,2}$/iu;
/** "2 x 0,99", "3 Stk x 1,49", "2 * 4,50", "1,240 kg x 1,49 €/kg": a count (or a weight) and a unit price on a receipt. */
const RECEIPT_TIMES = new RegExp(
  String.raw`^(\d{1,3}(?:[.,]\d{1,3})?)\s*(?:stk\.?|st\.?|pcs?\.?|kg|g|l|m)?\s*[x×*]\s*[$€£]?(${PRICE}|\d{4}[.,]\d{2})\s*(?:(?:€|EUR)?\s*\/\s*(?:kg|g|l|m|stk|st))?$`,
  'i',
);

/** A metered quantity and its price per unit, as fuel slips print them ("33,43 l 1,079 EUR/l", "20,99 1 1,389 EUR/1"). */
const METERED = /(\d{1,4}[.,]\d{2,3})\s*(?:l|1|ltr|kg)?\s+(\d{1,3}[.,]\d{3})\s*(?:€|EUR)\s*\/\s*(?:l|1|ltr|kg)(?![\p{L}\p{N}])/iu;

/** How surely each receipt line's amount itself was read (its row's confidence also counts its description's words). */
const amountSureness = new WeakMap<LineItem, number>();

/** How surely a line's amount was read: the amount's own word on a receipt row, else the line's confidence. */
export function amountConfidence(item: LineItem): number {
  return amountSureness.get(item) ?? item.confidence;
}

/** "2,000 x 3,99 7,98", "2 Stk x 1,49 2,98": a count, a unit price and the amount on one receipt row. */
const RECEIPT_TIMES_AMOUNT = new RegExp(String.raw`^(\d{1,3})(?:[.,]0{1,3})?\s*(?:stk\.?|st\.?|pcs?\.?)?\s*[x×*]\s*[$€£]?(${PRICE})\s+(-?${PRICE}-?)$`, 'i');

/** A speck OCR read after a receipt row's amount: short, unsure and without a digit ("=e)"). */
function isSpeck(word: LayoutWord): boolean {
  return word.confidence < 0.5 && word.text.length <= 3 && !/\d/.test(word.text);
}

/**
 * A count (or a metered quantity) and its unit price on a receipt row of their own, given to the
 * priced row above it when they make its amount and it has no quantity yet; whether they were.
 */
function pricesAbove(rows: readonly { item: LineItem }[], quantity: number, unitPrice: number): boolean {
  const above = rows[rows.length - 1]?.item;
  if (above?.amount === undefined || above.quantity !== undefined || !fits(quantity, unitPrice, above.amount)) return false;
  Object.assign(above, { quantity, unit_price: unitPrice });
  return true;
}

/**
 * A till receipt's lines, or a table of descriptions and amounts alone ("Leistung | Betrag"),
 * which have no header the vocabulary reads: above its first totals row, each row of words
 * with one amount at its right end (its tax class or currency may follow), a leading count
 * ("2 Surface Pro 6  $1,998.00") as its quantity, and a "2 x 0,99" row next to it, when it makes
 * the amount, as its quantity and unit price. Offered as readings for the caller to check against
 * the totals: every such row, then the rows nearest the totals (the receipt's head may hold rows
 * that look alike), longest first.
 */
export function receiptRows(linesByPage: LayoutPhrase[][][]): LineItem[][] {
  const rows: Array<{ item: LineItem; times?: { quantity: number; unitPrice: number }; amountAt?: { right: number; height: number } }> = [];
  let times: { quantity: number; unitPrice: number } | undefined;
  let named: string | undefined;
  for (const lines of linesByPage) {
    const taken = new Set<LayoutPhrase[]>();
    for (const [k, row] of lines.entries()) {
      if (row.length === 0 || taken.has(row)) continue;
      const text = textOf(row);
      // "Zahlungsbedingungen" or "Notes" above the rows is no end of them.
      if (TOTALS_ROW.test(text)) {
        if (rows.length) return suffixes(inAmountColumn(rows).map((r) => r.item));
        continue;
      }
      const read = row.flatMap((p) => p.words);
      // The tax class after the amount, or a speck OCR read there ("=e)", unsure, no digit).
      while (read.length > 2 && (RECEIPT_TAIL.test(read[read.length - 1].text) || isSpeck(read[read.length - 1]))) read.pop();
      dropMargin(read);
      const words = read.map((w) => w.text);
      // "*Zp 07 33,43 l 1,079 EUR/l *" under a fuel slip's priced row: the litres and the price per litre (OCR reads "l" as "1").
      const metered = METERED.exec(text);
      if (metered && pricesAbove(rows, Number(metered[1].replace(',', '.')), Number(metered[2].replace(',', '.')))) continue;
      const said = RECEIPT_TIMES.exec(text.replace(/\s+[A-D*]$/i, ''));
      if (said) {
        // "2,000 x", "1,240 kg x": a receipt's count or weight, its separator always the decimal mark
        const quantity = Number(said[1].replace(',', '.'));
        const unitPrice = parseAmount(said[2])?.value;
        if (unitPrice !== undefined && pricesAbove(rows, quantity, unitPrice)) continue;
        if (unitPrice !== undefined) times = { quantity, unitPrice };
        continue;
      }
      const amountText = words[words.length - 1];
      // "2,000 x 3,99   7,98" under "RYET LEDL GU10 200lm  22237": count, unit price and amount
      // on a row of their own, the article's name on the row above.
      const priced = RECEIPT_TIMES_AMOUNT.exec(words.join(' '));
      if (priced && named) {
        const quantity = Number(priced[1]);
        const unitPrice = parseAmount(priced[2])?.value;
        const amount = parseAmount(priced[3])?.value;
        if (unitPrice !== undefined && amount !== undefined && fits(quantity, unitPrice, amount)) {
          const confidence = Math.min(0.7, ...row.map((p) => p.confidence));
          const item: LineItem = { description: named, quantity, unit_price: unitPrice, amount, confidence };
          amountSureness.set(item, read[read.length - 1].confidence);
          rows.push({ item });
          named = undefined;
          times = undefined;
          continue;
        }
      }
      let description = words.slice(0, -1).join(' ');
      // "2183839   1.129,00 b" over "DJI MAVIC PRO": an article number and the amount, the article's name on the row under it.
      const next = lines.slice(k + 1).find((l) => l.length > 0);
      if (RECEIPT_AMOUNT.test(amountText) && /^\d{4,14}$/.test(description) && next && !TOTALS_ROW.test(textOf(next))) {
        const name = next.flatMap((p) => p.words.map((w) => w.text));
        if (/\p{L}{2}/u.test(name.join(' ')) && !RECEIPT_AMOUNT.test(name[name.length - 1])) {
          description = name.join(' ');
          taken.add(next);
        }
      }
      if (!RECEIPT_AMOUNT.test(amountText) || !/\p{L}{2}/u.test(description)) {
        times = undefined;
        // A row of words with no amount: perhaps the name of the priced row under it (its article number left off).
        named = /\p{L}{2}/u.test(text) && !RECEIPT_AMOUNT.test(amountText) ? words.filter((w, i) => i === 0 || !/^\d{4,14}$/.test(w)).join(' ') : undefined;
        continue;
      }
      named = undefined;
      const raw = parseAmount(amountText)?.value;
      if (raw === undefined) continue;
      // a till's article number before the name ("#000003 Diesel", "*000019 Super E10")
      description = withoutPostingDate(description).replace(/^[#*]\d{3,14}\s+(?=\p{L})/u, '');
      const lead = /^(\d{1,3})\s+(?=\p{L})(.*)$/u.exec(description);
      // "2 ESTRELLA 0,5  5.40  10.80", "1 Croissant 1.90 1.90": the count's unit price printed after the name is no part of it.
      const pricedName = lead ? /^(.*\p{L}.*?)\s+(\S+)$/u.exec(lead[2]) : null;
      const shownPrice = pricedName && RECEIPT_AMOUNT.test(pricedName[2]) ? parseAmount(pricedName[2])?.value : undefined;
      const unitShown = lead && shownPrice !== undefined && Number(lead[1]) > 0 && fits(Number(lead[1]), shownPrice, raw) ? shownPrice : undefined;
      // "Gurken mini  0,89 x 2   1,78": a unit price and a count after the name.
      const written = !lead ? writtenTimes(description, raw) : undefined;
      const item: LineItem = {
        description: written ? written.description : lead ? (unitShown !== undefined ? pricedName![1] : lead[2]) : description,
        amount: raw,
        confidence: Math.min(0.7, ...row.map((p) => p.confidence)),
      };
      if (times && fits(times.quantity, times.unitPrice, raw)) Object.assign(item, { quantity: times.quantity, unit_price: times.unitPrice });
      else if (written) Object.assign(item, { quantity: written.quantity, unit_price: written.unitPrice });
      else if (lead && Number(lead[1]) > 0)
        Object.assign(item, { quantity: Number(lead[1]), unit_price: unitShown ?? Math.round((raw / Number(lead[1])) * 10_000) / 10_000 });
      times = undefined;
      const amountWord = read[read.length - 1];
      amountSureness.set(item, amountWord.confidence);
      rows.push({ item, amountAt: { right: amountWord.x + amountWord.width, height: median(read.map((w) => w.height)) || 10 } });
    }
  }
  return [];
}

/**
 * A hotel folio's "Date | Description | Debit | Credit": a payment ("MasterCard EMV  1,568.18")
 * has its amount in the column right of the charges'. The rows whose amount ends more than three
 * line heights right of the amounts of the rows next to them are dropped (rows with no place known keep theirs).
 */
function inAmountColumn<T extends { amountAt?: { right: number; height: number } }>(rows: T[]): T[] {
  const apart = (a: T | undefined, b: T) => a?.amountAt && b.amountAt && b.amountAt.right - a.amountAt.right > 3 * b.amountAt.height;
  const kept = rows.filter((row, i) => {
    const [before, after] = [rows[i - 1], rows[i + 1]];
    return !(row.amountAt && (before || after) && (!before || apart(before, row)) && (!after || apart(after, row)));
  });
  return kept.length ? kept : rows;
}

/**
 * A hotel folio's or a statement's row starts with its posting date and a reference number
 * ("9/10/2024  369253  GUEST ROOM  $285.21"): the description is the words after them (a date
 * misread in its first character, "©/9/2024", counts). A row that is nothing but them is kept.
 */
function withoutPostingDate(description: string): string {
  const m = /^\S{0,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\s+(?:\d{4,12}\s+)*(?=\S*\p{L}{2})(.*)$/u.exec(description);
  return m && /^\d{1,2}$|^\D?\d?$/.test(description.split(/[./-]/)[0]) ? m[1] : description;
}

/**
 * Words far right of a row's amount, beyond three line heights of empty paper and with no amount
 * among them: the page's margin (a folio's column of brand logos read as "canopy", "CU RIO"), not
 * the row's. They are dropped from `read`, so that the amount ends the row.
 */
function dropMargin(read: LayoutWord[]): void {
  let k = read.length - 1;
  while (k >= 0 && !RECEIPT_AMOUNT.test(read[k].text)) k--;
  if (k < 1 || k === read.length - 1) return;
  const amount = read[k];
  const gap = read[k + 1].x - (amount.x + amount.width);
  if (gap > 3 * (median(read.map((w) => w.height)) || 10)) read.length = k + 1;
}

/** A list, then the list without its first entry, and so on: the readings nearest the end first kept. */
function suffixes(items: LineItem[]): LineItem[][] {
  return items.map((_, i) => items.slice(i));
}
