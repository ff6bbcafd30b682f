/**
 * Issue 22: the checks of a typed step's declared input and output (checkStepData) and of settings a
 * person entered (settingsProblem), with no server: each mismatch is one sentence naming the step and
 * the field in words, the details go to the log, and the data checked is never changed.
 */
import { checkStepData, defineAction, fieldWords, settingsProblem, StepDataError } from '../../../src/server/automation/steps';
import { PermanentStepError } from '../../../src/server/automation/errors';

const sheets = defineAction({
  provider: 'sheet_test',
  action: 'add_row',
  title: 'Add a row to Google Sheets',
  input: {
    type: 'object',
    required: ['fields'],
    properties: { fields: { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } }, note: { type: 'string', default: 'none' } },
  },
  output: {
    type: 'object',
    required: ['row_number', 'rows'],
    additionalProperties: false,
    properties: {
      row_number: { type: 'integer', minimum: 2 },
      rows: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    },
  },
  run: () => Promise.resolve({}),
});

/** Runs the check and answers what it threw (message, part, field) and what it logged. */
function outcome(part: 'input' | 'output', value: unknown) {
  const logged: string[] = [];
  try {
    checkStepData(sheets.step, part, value, { warn: (m) => logged.push(m) });
    return { ok: true, logged };
  } catch (e) {
    expect(e).toBeInstanceOf(StepDataError);
    expect(e).toBeInstanceOf(PermanentStepError);
    const err = e as StepDataError;
    return { message: err.message, part: err.part, field: err.field, logged };
  }
}

describe("a typed step's declared output, checked after it runs", () => {
  it('accepts an output that fits, leaving it as it was', () => {
    const output = { row_number: 7, rows: [{ name: 'Ann' }] };
    expect(outcome('output', output)).toEqual({ ok: true, logged: [] });
    expect(output).toEqual({ row_number: 7, rows: [{ name: 'Ann' }] });
  });

  it('names the step and the missing field, and logs the details for developers', () => {
    expect(outcome('output', { rows: [] })).toEqual({
      message: 'The "Add a row to Google Sheets" step produced no row number.',
      part: 'output',
      field: 'row_number',
      logged: ['its output does not fit the schema it declares: / required {"missingProperty":"row_number"} (schema #/required)'],
    });
  });

  it('names a field of the wrong kind, one out of range, a field of a list item, an undeclared field and a result that is no object', () => {
    expect(outcome('output', { row_number: '7', rows: [] }).message).toBe(
      'The "Add a row to Google Sheets" step produced an unusable result: the row number must be a whole number.',
    );
    expect(outcome('output', { row_number: 1, rows: [] }).message).toBe(
      'The "Add a row to Google Sheets" step produced an unusable result: the row number must be 2 or more.',
    );
    expect(outcome('output', { row_number: 2, rows: [{ name: 'Ann' }, {}] })).toMatchObject({
      message: 'The "Add a row to Google Sheets" step produced no name (item 2 of the rows).',
      field: 'rows.1.name',
    });
    expect(outcome('output', { row_number: 2, rows: [], sheet: 'A' })).toMatchObject({
      message: 'The "Add a row to Google Sheets" step produced a sheet, which it does not declare.',
      field: 'sheet',
    });
    expect(outcome('output', null)).toMatchObject({
      message: 'The "Add a row to Google Sheets" step produced an unusable result: the result must be an object.',
      field: '',
    });
  });

  it('checks nothing for a step that declares no schema', () => {
    const plain = defineAction({ provider: 'sheet_test', action: 'plain', title: 'Plain', run: () => Promise.resolve(1) });
    expect(() => checkStepData(plain.step, 'output', 'anything')).not.toThrow();
    expect(() => checkStepData(plain.step, 'input', undefined)).not.toThrow();
  });
});

describe("a typed step's declared input, checked before it runs", () => {
  it('accepts an input that fits and fills in no defaults', () => {
    const input = { fields: { name: 'Ann', total: 3, vat: null } };
    expect(outcome('input', input)).toEqual({ ok: true, logged: [] });
    expect(input).toEqual({ fields: { name: 'Ann', total: 3, vat: null } });
  });

  it('names the step and the field it did not receive, or the one that is not usable', () => {
    expect(outcome('input', { note: 'x' })).toMatchObject({
      message: 'The "Add a row to Google Sheets" step received no fields from the step before it.',
      part: 'input',
      field: 'fields',
    });
    expect(outcome('input', { fields: { name: ['Ann'] } })).toMatchObject({
      message: 'The "Add a row to Google Sheets" step received an unusable input: the name must be text or a number or null.',
      field: 'fields.name',
    });
    expect(outcome('input', 'text')).toMatchObject({
      message: 'The "Add a row to Google Sheets" step received an unusable input: the input must be an object.',
      field: '',
    });
    expect(outcome('input', { fields: { name: ['Ann'] } }).logged).toEqual([
      'its input does not fit the schema it declares: /fields/name type {"type":["string","number","null"]} (schema #/properties/fields/additionalProperties/type)',
    ]);
  });
});

describe('settings a person entered (the setup screen)', () => {
  const settings = {
    type: 'object',
    required: ['channel'],
    additionalProperties: false,
    properties: {
      channel: { type: 'string', title: 'Channel', maxLength: 80 },
      vat_number: { type: 'string', title: 'VAT number', pattern: '^[A-Z]{2}[0-9A-Z]+$' },
      retry_count: { type: 'integer', minimum: 0 },
      mode: { enum: ['fast', 'careful'], errorMessage: 'Choose fast or careful.' },
    },
  };
  it('answers one plain sentence naming the field by its title or its name in words', () => {
    expect(settingsProblem({ settings }, { channel: 'c'.repeat(81) })).toEqual({
      field: 'channel',
      message: 'The channel must be at most 80 characters long.',
    });
    expect(settingsProblem({ settings }, {})).toEqual({ field: 'channel', message: 'The channel is required.' });
    expect(settingsProblem({ settings }, { channel: 'a', vat_number: 'x' })).toEqual({
      field: 'vat_number',
      message: 'The VAT number is not in the expected format.',
    });
    expect(settingsProblem({ settings }, { channel: 'a', retry_count: -1 })).toEqual({ field: 'retry_count', message: 'The retry count must be 0 or more.' });
    expect(settingsProblem({ settings }, { channel: 'a', mode: 'slow' })).toEqual({ field: 'mode', message: 'Choose fast or careful.' });
    expect(settingsProblem({ settings }, { channel: 'a', extra: 1 })).toEqual({ field: 'extra', message: 'This step has no setting called extra.' });
    expect(settingsProblem({ settings }, null)).toEqual({ field: '', message: 'The settings must be a set of named values.' });
  });

  it("accepts settings that fit, and a '{{field}}' value for any rule (it is checked when the step runs)", () => {
    expect(settingsProblem({ settings }, { channel: '#sales', retry_count: 2, mode: 'fast' })).toBeUndefined();
    expect(settingsProblem({ settings }, { channel: '{{channel}}', retry_count: '{{tries}}' })).toBeUndefined();
  });

  it('words a field path', () => {
    expect(fieldWords('row_number')).toBe('the row number');
    expect(fieldWords('invoiceNumber')).toBe('the invoice number');
    expect(fieldWords('rows.0')).toBe('item 1 of the rows');
    expect(fieldWords('documents.2.vendor_name')).toBe('the vendor name (item 3 of the documents)');
    expect(fieldWords('channel', settings)).toBe('the channel');
    expect(fieldWords('vat_number', settings)).toBe('the VAT number');
  });
});
