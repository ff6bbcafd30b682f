import { applyTemplates, fieldsOf, fillTemplate } from '../../../src/server/automation/templating';
import { checkSettings, defineAction, StepSettingsError } from '../../../src/server/automation/steps';

describe("the engine's one '{{field}}' templating", () => {
  const fields = { name: 'Ann', count: 2, order: { total: 12.5, lines: [{ sku: 'A1' }] }, empty: null };

  it('fills text: dotted paths and list indexes, objects as JSON, missing fields as nothing', () => {
    expect(fillTemplate('Hi {{ name }}, {{order.total}} for {{order.lines.0.sku}}; {{order.lines}}; [{{nope}}][{{empty}}]', fields)).toBe(
      'Hi Ann, 12.5 for A1; [{"sku":"A1"}]; [][]',
    );
  });

  it('fills settings deeply: a placeholder alone keeps the value type, a missing one drops the setting', () => {
    expect(
      applyTemplates(
        {
          name: '{{name}}',
          times: '{{count}}',
          line: '{{order.lines.0}}',
          to: '{{nope}}',
          note: 'x {{nope}}y',
          list: ['{{count}}', '{{nope}}', 'n={{count}}'],
          fixed: 3,
        },
        fields,
      ),
    ).toEqual({
      name: 'Ann',
      times: 2,
      line: { sku: 'A1' },
      note: 'x y',
      list: [2, 'n=2'],
      fixed: 3,
    });
  });

  it("reads a trigger payload's data, or the previous output itself", () => {
    expect(fieldsOf({ source: 'webhook', data: { a: 1 }, files: [] })).toEqual({ a: 1 });
    expect(fieldsOf({ a: 2, files: 'x' })).toEqual({ a: 2, files: 'x' });
    expect(fieldsOf(null)).toEqual({});
  });
});

describe('settings checks of a typed step', () => {
  const step = defineAction({
    provider: 'unit_test',
    action: 'mail',
    title: 'Send a note',
    settings: {
      type: 'object',
      required: ['to', 'copies'],
      additionalProperties: false,
      properties: { to: { type: 'string', format: 'email' }, copies: { type: 'integer', minimum: 1 } },
    },
    run: async () => ({}),
  });
  const problem = (settings: Record<string, unknown>, templated: boolean) => {
    try {
      checkSettings(step.step, settings, { templated });
      return undefined;
    } catch (e) {
      expect(e).toBeInstanceOf(StepSettingsError);
      return [(e as StepSettingsError).field, (e as Error).message];
    }
  };

  it('names the field of the first problem', () => {
    expect(problem({ to: 'a@b.co', copies: 1 }, false)).toBeUndefined();
    expect(problem({ copies: 1 }, false)).toEqual(['to', 'The "Send a note" step\'s settings are not valid: The setting "to" is required.']);
    expect(problem({ to: 'nobody', copies: 1 }, false)).toEqual([
      'to',
      'The "Send a note" step\'s settings are not valid: The setting "to" must be a valid e-mail address.',
    ]);
    expect(problem({ to: 'a@b.co', copies: 0 }, false)).toEqual([
      'copies',
      'The "Send a note" step\'s settings are not valid: The setting "copies" must be 1 or more.',
    ]);
    expect(problem({ to: 'a@b.co', copies: 1, cc: 'x' }, false)).toEqual([
      'cc',
      'The "Send a note" step\'s settings are not valid: "cc" is not an accepted field.',
    ]);
  });

  it('as the recipe writes them, a placeholder passes for any rule of its field, not for a missing one', () => {
    expect(problem({ to: '{{email}}', copies: '{{n}}' }, true)).toBeUndefined();
    expect(problem({ to: '{{email}}' }, true)).toEqual(['copies', 'The "Send a note" step\'s settings are not valid: The setting "copies" is required.']);
    expect(problem({ to: '{{email}}', copies: '{{n}}' }, false)?.[0]).toBe('to');
  });

  it('refuses a bad definition at start-up', () => {
    expect(() => defineAction({ provider: 'Bad-Name', action: 'x', title: 'X', run: async () => ({}) })).toThrow(
      'Step "Bad-Name:x": provider and action must be lower_snake_case',
    );
    expect(() =>
      defineAction({ provider: 'a', action: 'b', title: 'B', settings: { type: 'object', properties: { n: { type: 'nonsense' } } }, run: async () => ({}) }),
    ).toThrow(/^Step "a:b" settings schema: /);
  });
});
