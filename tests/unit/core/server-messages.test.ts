/**
 * Every error a user can see is a sentence about their data or action (issue 25): this scans the
 * server's and the plugins' source for the messages given to the errors that reach a user (HTTP
 * errors, failed steps, refused files) and fails on a quoted or bare field name ("file_id",
 * sheet_id), on raw exception text passed through (`${e.message}` of an error that is not one of
 * the product's own user-facing errors) and on words of a program's internals (undefined, NaN,
 * [object Object], ENOENT, stack traces).
 *
 * The public API and MCP server (src/server/public-api) are left out: their readers are developers
 * calling tools by name (start_recipe), and their field names are part of the contract.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const repo = path.resolve(__dirname, '../../..');
const ROOTS = ['src/server', 'plugins'];
const LEFT_OUT = [/^src\/server\/public-api\//, /^src\/server\/testing\//, /\.test\.tsx?$/, /\/testing\//];

/** Calls whose string argument is shown to a user. */
const USER_FACING_CALLS = new Set([
  'badRequest',
  'notFound',
  'forbidden',
  'conflict',
  'unauthorized',
  'tooLarge',
  'unprocessable',
  'HttpError',
  'PermanentStepError',
  'StepSettingsError',
  'StepDataError',
  'UnsupportedFileTypeError',
  'DamagedFileError',
  'DocumentReadError',
  'NotADocumentError',
  'CsvFormatError',
  'ConnectFailedError',
  'RunRefusedError',
  'refuse',
]);

/** The product's own errors whose messages are written for users: passing theirs on is fine. */
const USER_FACING_ERRORS = [
  'DocumentReadError',
  'EmptyTextError',
  'TextTooLongError',
  'WebFetchError',
  'PageReadError',
  'CsvFormatError',
  'ZipBudgetError',
  'GridBudgetError',
  'NotADocumentError',
  'FileStoreError',
  'HttpError',
  'PermanentStepError',
  'EmptyDocumentError',
  'UnreadableDocumentError',
  'UnsearchableFileError',
];

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules' && name !== 'precompiled') walk(full, out);
    } else if (/\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

interface Message {
  where: string;
  text: string;
  /** the source text of the interpolations */
  parts: string[];
  /** the source of the statement the message is in, and the few lines before it */
  context: string;
}

function calleeName(expr: ts.Expression): string | undefined {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  return undefined;
}

function messagesOf(file: string): Message[] {
  const rel = path.relative(repo, file).split(path.sep).join('/');
  const source = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lines = source.split('\n');
  const out: Message[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments) {
      const name = calleeName(node.expression);
      if (name && USER_FACING_CALLS.has(name)) {
        // the message is the call's first string (HttpError(409, 'message', …), ConnectFailedError('message', 400, 'code'))
        for (const arg of node.arguments) {
          let text: string | undefined;
          const parts: string[] = [];
          if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) text = arg.text;
          else if (ts.isTemplateExpression(arg)) {
            text = arg.head.text;
            for (const span of arg.templateSpans) {
              parts.push(span.expression.getText(sf));
              text += '{…}' + span.literal.text;
            }
          }
          if (text === undefined) continue;
          const line = sf.getLineAndCharacterOfPosition(arg.getStart(sf)).line;
          out.push({ where: `${rel}:${line + 1}`, text, parts, context: lines.slice(Math.max(0, line - 4), line + 1).join('\n') });
          break;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const FILES = ROOTS.flatMap((r) => walk(path.join(repo, r))).filter((f) => {
  const rel = path.relative(repo, f).split(path.sep).join('/');
  return !LEFT_OUT.some((re) => re.test(rel));
});
const MESSAGES = FILES.flatMap(messagesOf);

/**
 * The messages the request schemas give (ajv-errors' `errorMessage`): a malformed request from the
 * app shows them to its user. schemas/public-api is left out, as src/server/public-api is.
 */
function schemaMessages(): Message[] {
  const out: Message[] = [];
  const collect = (node: unknown, where: string, inMessage: boolean): void => {
    if (typeof node === 'string') {
      if (inMessage) out.push({ where, text: node, parts: [], context: '' });
    } else if (Array.isArray(node)) node.forEach((x, i) => collect(x, `${where}/${i}`, inMessage));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) collect(v, `${where}/${k}`, inMessage || k === 'errorMessage');
  };
  const walkJson = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const rel = path.relative(repo, full).split(path.sep).join('/');
      if (statSync(full).isDirectory()) {
        if (rel !== 'schemas/public-api') walkJson(full);
      } else if (name.endsWith('.schema.json')) collect(JSON.parse(readFileSync(full, 'utf8')), `${rel}#`, false);
    }
  };
  walkJson(path.join(repo, 'schemas'));
  return out;
}
const SCHEMA_MESSAGES = schemaMessages();

/** A snake_case name (two words or more) — a field of the code, not a word of the user's. */
const FIELD_NAME = /(^|[^\w{/.-])([a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9])(?![\w/.@-])/;
const INTERNAL_WORDS = /\b(undefined|NaN|null|\[object Object\]|ENOENT|EACCES|ECONNREFUSED|TypeError|ReferenceError|Invalid string length|stack trace)\b/;

describe("the server's user-facing messages", () => {
  it('finds the messages (the scan itself works)', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(MESSAGES.length).toBeGreaterThan(150);
    expect(MESSAGES.some((m) => m.text === 'The combination id must be a number.')).toBe(true);
  });

  it('name no field of the code, quoted or bare', () => {
    const offenders = MESSAGES.filter((m) => FIELD_NAME.test(m.text)).map((m) => `${m.where}: ${m.text}`);
    expect(offenders).toEqual([]);
  });

  it('pass on no raw exception text: only the product’s own user-facing errors’ messages', () => {
    const offenders = MESSAGES.filter((m) =>
      m.parts.some((p) => /\b(e|err|error|cause|caught|reason)\.message\b/.test(p) && !USER_FACING_ERRORS.some((c) => m.context.includes(c))),
    ).map((m) => `${m.where}: ${m.text}`);
    expect(offenders).toEqual([]);
  });

  it("the request schemas' own messages name no field and no internals either", () => {
    expect(SCHEMA_MESSAGES.length).toBeGreaterThan(50);
    expect(SCHEMA_MESSAGES.some((m) => m.text === 'Please attach the statement file.')).toBe(true);
    const offenders = SCHEMA_MESSAGES.filter((m) => FIELD_NAME.test(m.text) || INTERNAL_WORDS.test(m.text)).map((m) => `${m.where}: ${m.text}`);
    expect(offenders).toEqual([]);
  });

  it('use no words of the program’s internals', () => {
    const offenders = MESSAGES.filter((m) => INTERNAL_WORDS.test(m.text)).map((m) => `${m.where}: ${m.text}`);
    expect(offenders).toEqual([]);
  });
});
