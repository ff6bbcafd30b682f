/**
 * The kinds of file a workflow may accept, as decided from the content. `xml` is an XML
 * e-invoice (a UBL Invoice or CreditNote, a CII CrossIndustryInvoice): other XML is text.
 */
export type FileKind = 'pdf' | 'png' | 'jpeg' | 'xlsx' | 'csv' | 'txt' | 'xml';

export const ALL_FILE_KINDS: readonly FileKind[] = ['pdf', 'png', 'jpeg', 'xlsx', 'csv', 'txt', 'xml'];

interface KindInfo {
  label: string;
  mime: string;
  extension: string;
}

export const FILE_KINDS: Record<FileKind, KindInfo> = {
  pdf: { label: 'PDF', mime: 'application/pdf', extension: 'pdf' },
  png: { label: 'PNG', mime: 'image/png', extension: 'png' },
  jpeg: { label: 'JPEG', mime: 'image/jpeg', extension: 'jpg' },
  xlsx: { label: 'XLSX', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
  csv: { label: 'CSV', mime: 'text/csv; charset=utf-8', extension: 'csv' },
  txt: { label: 'text', mime: 'text/plain; charset=utf-8', extension: 'txt' },
  xml: { label: 'XML e-invoice', mime: 'application/xml', extension: 'xml' },
};

/** True for a string naming a known kind; for validating configuration and request fields. */
export function isFileKind(value: unknown): value is FileKind {
  return typeof value === 'string' && (ALL_FILE_KINDS as readonly string[]).includes(value);
}

/**
 * "a PDF, PNG or JPEG" — the allowed kinds as an English phrase with its article, for error
 * messages ("The uploaded file is not a PDF, PNG or JPEG file").
 */
export function describeKinds(kinds: readonly FileKind[]): string {
  const labels = [...new Set(kinds)].map((k) => FILE_KINDS[k].label);
  if (labels.length === 0) return 'an accepted';
  const list = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
  // initialisms are read letter by letter: "an XLSX", "a PDF"
  return `${/^[AEFHILMNORSX]/.test(labels[0]) ? 'an' : 'a'} ${list}`;
}
