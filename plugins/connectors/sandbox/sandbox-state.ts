import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A file in the sandbox Drive (bytes kept beside the state file). */
export interface SandboxFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  createdTime: string;
  size: number;
}

/**
 * What a cell holds, as Sheets keeps a cell's userEnteredValue: 's' text (stringValue), 'n' a
 * number, 'b' a boolean, 'f' a formula (formulaValue: the text began with "=" and was written
 * with valueInputOption USER_ENTERED). RAW input never makes a formula.
 */
export type SandboxCellKind = 's' | 'n' | 'b' | 'f';

export interface SandboxSpreadsheet {
  spreadsheetId: string;
  title: string;
  /** rows of the first sheet ('Sheet1'): each cell as entered (a formula's text for a formula) */
  rows: string[][];
  /** the kind of each cell of `rows`, same shape; a missing entry is text */
  kinds?: SandboxCellKind[][];
}

export interface SandboxContact {
  ContactID: string;
  Name: string;
}

export interface SandboxLineItem {
  LineItemID: string;
  Description: string;
  Quantity: number;
  UnitAmount: number;
  /** Quantity × UnitAmount to the cent (tax included when the invoice's LineAmountTypes is Inclusive) */
  LineAmount: number;
  AccountCode?: string;
  TaxType: string;
  /** given, or computed from the TaxType's rate, to the cent */
  TaxAmount: number;
}

export interface SandboxInvoice {
  InvoiceID: string;
  Type: string;
  Status: string;
  InvoiceNumber?: string;
  Reference?: string;
  Contact: SandboxContact;
  Date?: string;
  DueDate?: string;
  CurrencyCode?: string;
  LineAmountTypes: string;
  LineItems: SandboxLineItem[];
  SubTotal: number;
  TotalTax: number;
  Total: number;
  UpdatedDateUTC: string;
}

/** Everything one sandbox account holds (its Drive, Sheets or Xero organisation). */
export interface SandboxAccount {
  files: SandboxFile[];
  spreadsheets: SandboxSpreadsheet[];
  contacts: SandboxContact[];
  invoices: SandboxInvoice[];
  /** Xero Idempotency-Key → the invoice reply it produced */
  idempotency: Record<string, string>;
}

export interface IssuedToken {
  provider: 'google' | 'xero';
  account: string;
  clientId: string;
  scope: string;
  /** ms since the epoch (access tokens only) */
  expiresAt?: number;
}

interface StateShape {
  accounts: Record<string, SandboxAccount>;
  access: Record<string, IssuedToken>;
  refresh: Record<string, IssuedToken>;
}

/** A new opaque id or token with a recognisable prefix. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/**
 * The sandbox providers' data, one JSON file under DATA_DIR/sandbox plus the Drive files' bytes
 * beside it: written atomically (temporary file, then rename) after every change, so a restart
 * keeps the files, sheets, bills and issued tokens.
 */
export class SandboxState {
  private readonly file: string;
  private readonly blobs: string;
  private state: StateShape;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'state.json');
    this.blobs = path.join(dir, 'drive-files');
    mkdirSync(this.blobs, { recursive: true });
    this.state = existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as StateShape) : { accounts: {}, access: {}, refresh: {} };
  }

  private save(): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, this.file);
  }

  /** Changes the state and writes it. */
  change<T>(fn: (s: StateShape) => T): T {
    const out = fn(this.state);
    this.save();
    return out;
  }

  read(): Readonly<StateShape> {
    return this.state;
  }

  /** The account's data, created empty the first time. */
  account(name: string): SandboxAccount {
    let a = this.state.accounts[name];
    if (!a) {
      a = { files: [], spreadsheets: [], contacts: [], invoices: [], idempotency: {} };
      this.change((s) => (s.accounts[name] = a!));
    }
    return a;
  }

  writeBlob(id: string, bytes: Buffer): void {
    writeFileSync(path.join(this.blobs, id.replace(/[^A-Za-z0-9_-]/g, '')), bytes);
  }

  readBlob(id: string): Buffer | undefined {
    const p = path.join(this.blobs, id.replace(/[^A-Za-z0-9_-]/g, ''));
    return existsSync(p) ? readFileSync(p) : undefined;
  }
}
