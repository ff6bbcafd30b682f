import { render, screen, within } from '@testing-library/react';
import { InvoiceResult, standaloneText } from '../../../plugins/invoice-extraction/InvoiceResult';
import { invoiceReply, type InvoiceExtraction } from '../../../plugins/invoice-extraction/invoice-reply';

function reply(fields: InvoiceExtraction['fields'], eInvoice?: InvoiceExtraction['eInvoice']) {
  const view = {
    Status: 'SUCCEEDED',
    Job_ID: 'j1',
    progress: 100,
    message: 'Done',
    data: { bucket: 'uploads', key: 'k-1.pdf' },
    outcome: { result: { fields, lineItems: [], warnings: [], ...(eInvoice ? { eInvoice } : {}) }, name: 'invoice.pdf', pages: 1, ocrPages: [] },
  };
  const r = invoiceReply(view as unknown as Parameters<typeof invoiceReply>[0]);
  if (r.Status !== 'SUCCEEDED') throw new Error('not succeeded');
  return r;
}

describe('the invoice page and its VAT ids', () => {
  it('lists the vendor and customer VAT ids after their addresses when the reader found them', () => {
    const r = reply({
      invoice_number: { value: 'RE-42', confidence: 0.95 },
      vendor_name: { value: 'Lieferant GmbH', confidence: 0.85 },
      vendor_vat_id: { value: 'DE123456789', confidence: 0.8 },
      customer_vat_id: { value: 'FR 05 987 654 321', confidence: 0.45, raw: 'FR05987654321' },
      total: { value: 119, confidence: 0.95 },
    });
    expect(r.fields.map((f) => f.name)).toEqual([
      'invoice_number',
      'invoice_date',
      'due_date',
      'vendor_name',
      'vendor_address',
      'vendor_vat_id',
      'customer_name',
      'customer_address',
      'customer_vat_id',
      'po_number',
      'subtotal',
      'tax',
      'total',
      'currency',
      'payment_terms',
    ]);
    expect(r.fields.find((f) => f.name === 'customer_vat_id')).toEqual({
      name: 'customer_vat_id',
      value: 'FR 05 987 654 321',
      confidence: 0.45,
      raw: 'FR05987654321',
    });

    render(<InvoiceResult data={{ fields: r.fields, line_items: [], warnings: [] }} />);
    const result = screen.getByRole('region', { name: 'Extracted invoice' });
    expect(
      within(result)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual([
      'Invoice number',
      'Invoice date',
      'Due date',
      'Vendor name',
      'Vendor address',
      'Vendor VAT ID',
      'Customer name',
      'Customer address',
      'Customer VAT ID',
      'PO number',
      'Subtotal',
      'Tax',
      'Total',
      'Currency',
      'Payment terms',
    ]);
    const value = (name: string) => result.querySelector(`[data-field="${name}"]`)!.textContent;
    expect(value('vendor_vat_id')).toBe('DE123456789' + '80% sure');
    expect(value('customer_vat_id')).toBe('FR 05 987 654 321' + 'check: 45% sure');
  });

  it('leaves them out when the invoice prints none (no "Not found" rows for them)', () => {
    const r = reply({ invoice_number: { value: 'INV-1', confidence: 0.95 } });
    expect(r.fields.map((f) => f.name)).toEqual([
      'invoice_number',
      'invoice_date',
      'due_date',
      'vendor_name',
      'vendor_address',
      'customer_name',
      'customer_address',
      'po_number',
      'subtotal',
      'tax',
      'total',
      'currency',
      'payment_terms',
    ]);
    render(<InvoiceResult data={{ fields: r.fields, line_items: [], warnings: [] }} />);
    expect(screen.queryByText('Vendor VAT ID')).not.toBeInTheDocument();
    expect(screen.queryByText('Customer VAT ID')).not.toBeInTheDocument();
  });
});

describe('the invoice page and e-invoice data', () => {
  const total = { total: { value: 119, confidence: 0.99 } };

  it('says when the values were read from the e-invoice data the PDF carries, naming the standard and the attached file', () => {
    const r = reply(total, { format: 'Factur-X / ZUGFeRD (CII)', attachment: 'factur-x.xml' });
    expect(r.e_invoice).toEqual({ format: 'Factur-X / ZUGFeRD (CII)', attachment: 'factur-x.xml' });
    render(<InvoiceResult data={r} />);
    const result = screen.getByRole('region', { name: 'Extracted invoice' });
    expect(within(result).getByText('Read from the e-invoice data')).toBeInTheDocument();
    expect(result).toHaveTextContent(
      'This PDF carries its invoice as Factur-X / ZUGFeRD (CII) data (factur-x.xml): the values below were taken from it and checked against the page.',
    );
  });

  it('says nothing of e-invoice data for a document read from its page alone', () => {
    const r = reply(total);
    expect(r).not.toHaveProperty('e_invoice');
    render(<InvoiceResult data={r} />);
    expect(screen.queryByText('Read from the e-invoice data')).not.toBeInTheDocument();
  });

  it('says a credit note uploaded as XML is one, and that its amounts are shown negative', () => {
    const r = reply({ total: { value: -120, confidence: 0.99 } }, { format: 'UBL', attachment: 'avoir.xml', standalone: true, credit_note: true });
    expect(r.e_invoice).toEqual({ format: 'UBL', attachment: 'avoir.xml', standalone: true, credit_note: true });
    render(<InvoiceResult data={r} />);
    const result = screen.getByRole('region', { name: 'Extracted invoice' });
    expect(within(result).getByText('Read from the e-invoice file')).toBeInTheDocument();
    expect(result).toHaveTextContent(
      'avoir.xml is a credit note in UBL: the values below are its data, checked against its own sums; it carries no page to compare them with. Its amounts are shown negative.',
    );
  });

  it('says whether the PDF an XML e-invoice carries was compared with its data, and why not', () => {
    const base = { format: 'UBL', attachment: 'efff.xml', standalone: true as const };
    expect(standaloneText({ ...base, pdf: { name: 'page.pdf', compared: true } })).toBe(
      'efff.xml is an e-invoice in UBL: the values below are its data, checked against its own sums and against the page of the PDF it carries (page.pdf).',
    );
    const r = reply(total, {
      ...base,
      pdf: { name: 'anhang.pdf', compared: false, why: "it does not show the invoice number 18383, so it is not this invoice's page (an annex, perhaps)" },
    });
    render(<InvoiceResult data={r} />);
    expect(screen.getByRole('region', { name: 'Extracted invoice' })).toHaveTextContent(
      "efff.xml is an e-invoice in UBL: the values below are its data, checked against its own sums. The PDF it carries (anhang.pdf) was not compared: it does not show the invoice number 18383, so it is not this invoice's page (an annex, perhaps).",
    );
  });
});
