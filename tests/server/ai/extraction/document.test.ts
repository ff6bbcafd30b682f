import { extractDocumentFields } from '../../../../src/server/ai/extraction/document';
import { typeOfValue } from '../../../../src/server/ai/extraction/patterns';
import { page } from './helpers';

describe('extractDocumentFields', () => {
  it('finds label/value pairs inline, beside and below, typed values and a simple table, in reading order', () => {
    const p = page([
      [50, 40, 'Shipping Notice', 16],
      [50, 80, 'Reference: SN-55120'],
      [300, 80, 'Issued'],
      [400, 80, '2 April 2026'],
      [50, 110, 'Consignee'],
      [50, 124, 'Oak Grove Partners'],
      [50, 136, '77 Mill Lane'],
      [50, 160, 'Contact ops@oakgrove.example or +44 20 7946 0958'],
      [50, 200, 'Item'],
      [250, 200, 'Weight'],
      [400, 200, 'Value'],
      [50, 214, 'Pallet A'],
      [250, 214, '120 kg'],
      [400, 214, '1,500.00'],
      [50, 228, 'Pallet B'],
      [250, 228, '80 kg'],
      [400, 228, '950.00'],
      [50, 280, 'Insured for €2,450.00 until 30/06/2026'],
    ]);
    const fields = extractDocumentFields([p]);
    expect(fields).toEqual([
      { label: 'Reference', result: 'SN-55120' },
      { label: 'Issued', result: '2026-04-02' },
      { label: 'Consignee', result: 'Oak Grove Partners, 77 Mill Lane' },
      { label: 'Email', result: 'ops@oakgrove.example' },
      { label: 'Phone', result: '+44 20 7946 0958' },
      { label: 'Item 1', result: 'Pallet A' },
      { label: 'Weight 1', result: '120 kg' },
      { label: 'Value 1', result: '1,500.00' },
      { label: 'Item 2', result: 'Pallet B' },
      { label: 'Weight 2', result: '80 kg' },
      { label: 'Value 2', result: '950.00' },
      { label: 'Date', result: '2026-06-30' },
      { label: 'Amount', result: '2450.00 EUR' },
    ]);
  });

  it('returns an empty list for a blank document', () => {
    expect(extractDocumentFields([page([])])).toEqual([]);
  });
});

describe('typeOfValue', () => {
  it.each([
    ['jane@example.com', 'email'],
    ['www.example.com', 'url'],
    ['+1 (555) 010-2030', 'phone'],
    ['12 March 2026', 'date'],
    ['$1,200.00', 'amount'],
    ['INV-2026-7', 'id'],
    ['221B Baker Street', 'address'],
    ['Hello there', 'text'],
  ])('%s is %s', (text, type) => {
    expect(typeOfValue(text)).toBe(type);
  });
});
