/**
 * Python literal reading and writing, for the `config_json` strings the platform API keeps in the
 * spec's shape (`"{'INVOICE_PRIMARY_KEY': 'PO Number', 'GENERATE_EMAIL_FOR_MATCHED': False}"`).
 *
 * Runtime-neutral (no Node APIs): the browser and the server both use it. The reader is a real
 * recursive-descent parser of the literal subset `ast.literal_eval` accepts for data — dicts,
 * lists, tuples, strings, ints, floats, True/False/None — so quotes inside values, escapes and
 * nesting are handled properly instead of by swapping characters. JSON's true/false/null are
 * accepted too, because older clients stored JSON in the same field.
 */

/** Raised for text that is not a Python literal; `position` is the 0-based offset of the problem. */
export class PythonLiteralError extends Error {
  constructor(
    message: string,
    readonly position: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'PythonLiteralError';
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

const KEYWORDS: Record<string, unknown> = {
  True: true,
  False: false,
  None: null,
  true: true,
  false: false,
  null: null,
};

class Reader {
  private pos = 0;

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    this.skipSpace();
    if (this.pos >= this.text.length) this.fail('the text is empty; expected a Python literal');
    const value = this.parseValue();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail(`unexpected ${this.describe()} after the end of the value`);
    return value;
  }

  private parseValue(): unknown {
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === '{') return this.parseDict();
    if (ch === '[') return this.parseSequence('[', ']');
    if (ch === '(') return this.parseSequence('(', ')');
    if (ch === "'" || ch === '"') return this.parseStrings();
    if (ch === '-' || ch === '+' || ch === '.' || (ch >= '0' && ch <= '9')) return this.parseNumber();
    if (ch !== undefined && /[A-Za-z_]/.test(ch)) {
      const start = this.pos;
      while (this.pos < this.text.length && /[A-Za-z0-9_]/.test(this.text[this.pos])) this.pos++;
      const word = this.text.slice(start, this.pos);
      // String prefixes: r'..', u'..', b'..' (and combinations such as rb'..').
      if (/^[rRuUbB]{1,2}$/.test(word) && (this.text[this.pos] === "'" || this.text[this.pos] === '"')) {
        this.pos = start;
        return this.parseStrings();
      }
      if (Object.prototype.hasOwnProperty.call(KEYWORDS, word)) return KEYWORDS[word];
      this.pos = start;
      this.fail(`unknown name '${word}'; only True, False and None are allowed`);
    }
    this.fail(ch === undefined ? 'the text ends where a value was expected' : `unexpected ${this.describe()} where a value was expected`);
  }

  private parseDict(): Record<string, unknown> {
    const open = this.pos;
    this.pos++; // {
    const result: Record<string, unknown> = {};
    this.skipSpace();
    while (this.text[this.pos] !== '}') {
      if (this.pos >= this.text.length) this.fail(`the dict opened at position ${open} is not closed`);
      const keyAt = this.pos;
      const key = this.parseValue();
      if (typeof key === 'object' && key !== null) {
        this.pos = keyAt;
        this.fail('a dict key must be a string, number, True, False or None');
      }
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail(`expected ':' after a dict key but found ${this.describe()}`);
      this.pos++;
      Object.defineProperty(result, String(key), { value: this.parseValue(), enumerable: true, writable: true, configurable: true });
      if (!this.separator('}')) this.failUnclosed('dict', open);
    }
    this.pos++; // }
    return result;
  }

  private parseSequence(open: string, close: string): unknown[] {
    const openAt = this.pos;
    this.pos++;
    const items: unknown[] = [];
    this.skipSpace();
    while (this.text[this.pos] !== close) {
      if (this.pos >= this.text.length) this.fail(`the '${open}' opened at position ${openAt} is not closed`);
      items.push(this.parseValue());
      if (!this.separator(close)) this.failUnclosed(open === '[' ? 'list' : 'tuple', openAt, close);
    }
    this.pos++;
    return items;
  }

  /** After an item: consumes ',' (true), or sees the closing bracket without consuming it (true). */
  private separator(close: string): boolean {
    this.skipSpace();
    if (this.text[this.pos] === ',') {
      this.pos++;
      this.skipSpace();
      return true;
    }
    return this.text[this.pos] === close;
  }

  /** One string literal or several adjacent ones, which Python concatenates ('a' 'b' == 'ab'). */
  private parseStrings(): string {
    let out = this.parseString();
    for (;;) {
      const save = this.pos;
      this.skipSpace();
      const ch = this.text[this.pos];
      if (ch === "'" || ch === '"' || (ch !== undefined && /[rRuU]/.test(ch) && /['"]/.test(this.text[this.pos + 1] ?? ''))) {
        out += this.parseString();
      } else {
        this.pos = save;
        return out;
      }
    }
  }

  private parseString(): string {
    const start = this.pos;
    let raw = false;
    while (/[rRuUbB]/.test(this.text[this.pos] ?? '')) {
      if (this.text[this.pos] === 'r' || this.text[this.pos] === 'R') raw = true;
      this.pos++;
    }
    const quote = this.text[this.pos];
    const triple = this.text.startsWith(quote.repeat(3), this.pos);
    const delimiter = triple ? quote.repeat(3) : quote;
    this.pos += delimiter.length;
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) {
        this.pos = start;
        this.fail('a string is not closed');
      }
      if (this.text.startsWith(delimiter, this.pos)) {
        this.pos += delimiter.length;
        return out;
      }
      const ch = this.text[this.pos];
      if ((ch === '\n' || ch === '\r') && !triple) this.fail('a line break inside a quoted string (use \\n)');
      if (ch !== '\\') {
        out += ch;
        this.pos++;
        continue;
      }
      const next = this.text[this.pos + 1];
      if (next === undefined) this.fail('a string ends with a lone backslash');
      if (raw) {
        // Raw strings keep the backslash; it only stops the quote from closing the string.
        out += ch + next;
        this.pos += 2;
        continue;
      }
      out += this.parseEscape();
    }
  }

  private parseEscape(): string {
    const at = this.pos;
    const next = this.text[this.pos + 1];
    this.pos += 2;
    if (Object.prototype.hasOwnProperty.call(SIMPLE_ESCAPES, next)) return SIMPLE_ESCAPES[next];
    if (next === '\n') return ''; // line continuation
    if (next === '\r') {
      if (this.text[this.pos] === '\n') this.pos++;
      return '';
    }
    const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
    if (hexLength) {
      const digits = this.text.slice(this.pos, this.pos + hexLength);
      if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(digits)) {
        this.pos = at;
        this.fail(`the escape \\${next} needs ${hexLength} hexadecimal digits`);
      }
      this.pos += hexLength;
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) {
        this.pos = at;
        this.fail(`the escape \\${next}${digits} is beyond the last Unicode code point`);
      }
      return String.fromCodePoint(code);
    }
    if (next >= '0' && next <= '7') {
      let digits = next;
      while (digits.length < 3 && /[0-7]/.test(this.text[this.pos] ?? '')) digits += this.text[this.pos++];
      return String.fromCharCode(parseInt(digits, 8));
    }
    // Python keeps unknown escapes as they are (backslash included).
    return '\\' + next;
  }

  private parseNumber(): number {
    const start = this.pos;
    const match = /^[+-]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)/.exec(
      this.text.slice(start, start + 400),
    );
    if (!match || !/\d/.test(match[0])) this.fail(`unexpected ${this.describe()} where a number was expected`);
    const literal = match[0];
    this.pos += literal.length;
    if (/[A-Za-z_0-9.]/.test(this.text[this.pos] ?? '') && !/^[+-]?0[xXoObB]/.test(literal)) {
      this.pos = start;
      this.fail(`'${literal}${this.text[start + literal.length]}' is not a valid number`);
    }
    const clean = literal.replace(/_/g, '');
    const sign = clean.startsWith('-') ? -1 : 1;
    const unsigned = clean.replace(/^[+-]/, '');
    let value: number;
    if (/^0[xX]/.test(unsigned)) value = parseInt(unsigned.slice(2), 16);
    else if (/^0[oO]/.test(unsigned)) value = parseInt(unsigned.slice(2), 8);
    else if (/^0[bB]/.test(unsigned)) value = parseInt(unsigned.slice(2), 2);
    else value = Number(unsigned);
    if (!Number.isFinite(value)) {
      this.pos = start;
      this.fail(`'${literal}' is not a valid number`);
    }
    return sign * value;
  }

  /** Skips whitespace and `#` comments. */
  private skipSpace(): void {
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v' || ch === '\u00a0' || ch === '\ufeff') {
        this.pos++;
      } else if (ch === '#') {
        while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos++;
      } else {
        return;
      }
    }
  }

  /** After an item with neither ',' nor the closing bracket next: says which is wrong. */
  private failUnclosed(kind: string, openAt: number, close = '}'): never {
    if (this.pos >= this.text.length) this.fail(`the ${kind} opened at position ${openAt} is not closed`);
    this.fail(`expected ',' or '${close}' in the ${kind} but found ${this.describe()}`);
  }

  private describe(): string {
    if (this.pos >= this.text.length) return 'end of text';
    return `'${this.text[this.pos]}'`;
  }

  private fail(problem: string): never {
    const before = this.text.slice(0, this.pos);
    const line = before.split('\n').length;
    const column = this.pos - before.lastIndexOf('\n');
    throw new PythonLiteralError(`Not a valid Python literal: ${problem} (line ${line}, column ${column}, position ${this.pos}).`, this.pos, line, column);
  }
}

/**
 * Reads a Python literal (dict, list, tuple, str, int, float, True/False/None) into plain JS
 * values: dict → object, list/tuple → array, None → null. Throws PythonLiteralError with the line,
 * column and position of the first problem.
 */
export function parsePythonLiteral(text: string): unknown {
  if (typeof text !== 'string') throw new PythonLiteralError('Not a valid Python literal: expected a string of text.', 0, 1, 1);
  return new Reader(text).parseDocument();
}

// Characters Python's str.isprintable() rejects (so repr escapes them), except the plain space.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** Python's repr of a str: single quotes unless the text has ' and no ", escapes as CPython does. */
function reprString(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of value) {
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!;
      out += code <= 0xff ? `\\x${hex(code, 2)}` : code <= 0xffff ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
    } else out += ch;
  }
  return out + quote;
}

function reprNumber(value: number): string {
  if (!Number.isFinite(value)) throw new PythonLiteralError(`Cannot write ${value} as a Python literal.`, 0, 1, 1);
  if (Object.is(value, -0)) return '0';
  const text = String(value);
  // Python writes large and small floats with e+XX / e-XX: 1e+21 → 1e+21, 1e-7 → 1e-07.
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function repr(value: unknown, seen: Set<object>): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return reprString(value);
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return reprString(value.toISOString());
  if (typeof value === 'object') {
    if (seen.has(value)) throw new PythonLiteralError('Cannot write a value that contains itself as a Python literal.', 0, 1, 1);
    seen.add(value);
    try {
      if (Array.isArray(value)) return `[${value.map((item) => repr(item, seen)).join(', ')}]`;
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      return `{${entries.map(([k, v]) => `${reprString(k)}: ${repr(v, seen)}`).join(', ')}}`;
    } finally {
      seen.delete(value);
    }
  }
  throw new PythonLiteralError(`Cannot write a ${typeof value} as a Python literal.`, 0, 1, 1);
}

/**
 * Writes a value the way Python's repr writes the equivalent dict/list/str (single quotes,
 * True/False/None, ', ' and ': ' separators), so the stored config_json looks like the spec's.
 * Object keys whose value is undefined are left out (as JSON.stringify does).
 * parsePythonLiteral(toPythonLiteral(v)) gives back v for any JSON-like value.
 */
export function toPythonLiteral(value: unknown): string {
  return repr(value, new Set());
}
