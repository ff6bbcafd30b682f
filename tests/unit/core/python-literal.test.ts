import { parsePythonLiteral, PythonLiteralError, toPythonLiteral } from '../../../src/core/python-literal';

describe('parsePythonLiteral', () => {
  it('reads the config dict the spec stores', () => {
    const text =
      "{'INVOICE_PRIMARY_KEY': 'PO Number', 'PURCHASE_ORDER_PRIMARY_KEY': 'po_number', 'EMAIL_TONE_OF_VOICE_MATCHED': 'friendly', " +
      "'GENERATE_EMAIL_FOR_MATCHED': False, 'GENERATE_EMAIL_FOR_NOT_MATCHED': True, 'NOTE': None, 'combination_id': 10}";
    expect(parsePythonLiteral(text)).toEqual({
      INVOICE_PRIMARY_KEY: 'PO Number',
      PURCHASE_ORDER_PRIMARY_KEY: 'po_number',
      EMAIL_TONE_OF_VOICE_MATCHED: 'friendly',
      GENERATE_EMAIL_FOR_MATCHED: false,
      GENERATE_EMAIL_FOR_NOT_MATCHED: true,
      NOTE: null,
      combination_id: 10,
    });
  });

  it('keeps quotes inside values and reads escapes', () => {
    expect(parsePythonLiteral(`{"key": "O'Brien's PO", 'b': 'say "hi"', 'c': 'it\\'s', 'd': "a\\"b"}`)).toEqual({
      key: "O'Brien's PO",
      b: 'say "hi"',
      c: "it's",
      d: 'a"b',
    });
    expect(parsePythonLiteral(String.raw`'tab\there\nnew \\ \x41\u00e9\U0001F600 \101 \q'`)).toBe('tab\there\nnew \\ Aé😀 A \\q');
    expect(parsePythonLiteral(String.raw`r'C:\new\path'`)).toBe('C:\\new\\path');
    expect(parsePythonLiteral("'''multi\nline'''")).toBe('multi\nline');
    expect(parsePythonLiteral('\'ab\' "cd"')).toBe('abcd');
    expect(parsePythonLiteral("'True, None'")).toBe('True, None');
  });

  it('reads numbers, nesting, tuples, whitespace, comments and trailing commas', () => {
    expect(parsePythonLiteral(' [1, -2, +3, 4.5, -0.25, 1e3, 2E-2, 1_000, 0x1F, .5, 7., ] ')).toEqual([1, -2, 3, 4.5, -0.25, 1000, 0.02, 1000, 31, 0.5, 7]);
    expect(parsePythonLiteral("{\n  'a': {'b': [True, (1, 2), {}]},  # comment\n  'c': [],\n}")).toEqual({ a: { b: [true, [1, 2], {}] }, c: [] });
    expect(parsePythonLiteral('{1: "one", None: "none"}')).toEqual({ '1': 'one', null: 'none' });
  });

  it('accepts JSON true/false/null as older clients stored them', () => {
    expect(parsePythonLiteral('{"a": true, "b": false, "c": null}')).toEqual({ a: true, b: false, c: null });
  });

  it('does not let a "__proto__" key change the prototype', () => {
    const value = parsePythonLiteral("{'__proto__': {'polluted': True}}") as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['', /empty/],
    ["{'a': 1", /not closed|expected ','/],
    ["{'a' 1}", /expected ':'/],
    ["{'a': 1} x", /after the end/],
    ["'unterminated", /string is not closed/],
    ['[1 2]', /expected ',' or '\]'/],
    ["{'a': true_thing}", /unknown name 'true_thing'/],
    ["{'a': os.system('x')}", /unknown name 'os'/],
    ['[1, 2', /not closed/],
    ["{['a']: 1}", /dict key must be/],
    ['12abc', /not a valid number/],
    ["'bad \\x4'", /needs 2 hexadecimal digits/],
  ])('rejects %j with a clear message and position', (text, message) => {
    let error: unknown;
    try {
      parsePythonLiteral(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PythonLiteralError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/line \d+, column \d+, position \d+/);
  });

  it('reports the line and column of the problem', () => {
    try {
      parsePythonLiteral("{\n  'a': 1,\n  'b' 2\n}");
      throw new Error('should have failed');
    } catch (e) {
      expect(e).toBeInstanceOf(PythonLiteralError);
      expect((e as PythonLiteralError).line).toBe(3);
      expect((e as PythonLiteralError).column).toBe(7);
    }
  });
});

describe('toPythonLiteral', () => {
  it("writes what Python's repr writes", () => {
    expect(toPythonLiteral({ a: 'x', b: true, c: false, d: null, e: [1, 2.5, -3], f: {} })).toBe(
      "{'a': 'x', 'b': True, 'c': False, 'd': None, 'e': [1, 2.5, -3], 'f': {}}",
    );
    // repr picks double quotes when the text has a ' and no ".
    expect(toPythonLiteral("O'Brien")).toBe(`"O'Brien"`);
    expect(toPythonLiteral(`both ' and "`)).toBe(`'both \\' and "'`);
    expect(toPythonLiteral('line\nbreak\ttab\\ \x00 \u00a0 é 😀')).toBe("'line\\nbreak\\ttab\\\\ \\x00 \\xa0 é 😀'");
    expect(toPythonLiteral(1e21)).toBe('1e+21');
    expect(toPythonLiteral(1e-7)).toBe('1e-07');
    expect(toPythonLiteral({ skipped: undefined, kept: 1 })).toBe("{'kept': 1}");
  });

  it('round-trips values with quotes, backslashes and unicode', () => {
    const values = [
      { INVOICE_PRIMARY_KEY: `it's "quoted"`, PATH: 'C:\\temp\\new', EMOJI: '😀 naïve', LIST: ['a', "b'", 'c"', ''], N: [0, -1.5, 1e-9] },
      ["'", '"', "'\"'", '\\', "\\'", '\u2028', '\ud800'],
      'plain',
      [],
      {},
    ];
    for (const value of values) expect(parsePythonLiteral(toPythonLiteral(value))).toEqual(value);
  });

  it('refuses values Python literals cannot carry', () => {
    expect(() => toPythonLiteral(Number.NaN)).toThrow(PythonLiteralError);
    expect(() => toPythonLiteral(Infinity)).toThrow(/Infinity/);
    expect(() => toPythonLiteral(() => 1)).toThrow(/function/);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => toPythonLiteral(loop)).toThrow(/contains itself/);
  });
});
