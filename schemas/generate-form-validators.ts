/**
 * Generates src/app/forms/precompiled/: the JSON-Schema validators of every rjsf form, compiled
 * to plain JavaScript at build time with Ajv's standalone code generation, so the browser never
 * ships the Ajv compiler and never needs `new Function` (the CSP has no 'unsafe-eval').
 *
 * One module per form (`auth-login.ts`, ...), each exporting a `PrecompiledForm` (its $id, the
 * schema it was compiled from and the validate functions @rjsf/validator-ajv8's precompiled
 * validator looks up: the root by $id, each sub-schema rjsf validates on its own by its hash),
 * and `index.ts`, which loads a form's module by $id on demand (for forms given only a schema).
 *
 * Nothing it writes is committed (src/app/forms/precompiled/ is in .gitignore): the client build
 * (webpack.config.ts), `npm start` (through that build) and every Jest run (tests/support/global-setup.ts)
 * call writeFormValidators first, which rewrites only what changed. `npm run forms:validators`
 * runs it alone (e.g. before `tsc` in an editor). A plugin's form is found by its file name (see
 * pluginForms) and needs a `$id`: a drop-in's schemas/<plugin>/ is all it takes.
 *
 * A form source may name shared constants (`shared`): JSON values the app ships anyway, such as
 * the 419 time zone labels. Where the standalone code holds a constant's exact JSON text, the
 * module imports the constant instead, so the page and its validator share one copy.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Ajv from 'ajv';
import type { Options } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { customizeValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import { schemaParser, type RJSFSchema } from '@rjsf/utils';
import { ERROR_MESSAGE_KEYWORD } from '../src/core/validation-messages';
import type { PrecompiledForm } from '../src/app/forms/precompiled-form';

const repo = path.resolve(__dirname, '..');
export const OUT_DIR = path.join(repo, 'src/app/forms/precompiled');

/** An exported constant of a module of the app: a JSON array or object. */
export interface SharedConstant {
  /** the module, from the repository root (a TypeScript module under src/) */
  module: string;
  /** the export */
  name: string;
}

export interface FormSchemaSource {
  /** the module, from the repository root (JSON files by their default export) */
  module: string;
  /** the export holding the schema, for TypeScript modules */
  name?: string;
  /**
   * Constants the generated module imports wherever their JSON text would be (see
   * shareConstants): large values the app's bundle holds already, kept out of the validator.
   */
  shared?: SharedConstant[];
}

/** Every rjsf form's schema. */
/** The shell's own forms. */
const CORE_FORMS: FormSchemaSource[] = [
  { module: 'schemas/auth/login.schema.json' },
  { module: 'schemas/auth/forget-password.schema.json' },
  { module: 'src/app/pages/auth/register-form.ts', name: 'registerFormSchema' },
  { module: 'src/app/pages/auth/reset-form.ts', name: 'resetFormSchema' },
  { module: 'src/app/pages/account/account-form.ts', name: 'passwordSchema' },
  // the time zone list is the page's own (issue 7: it shipped twice on /my-account)
  {
    module: 'src/app/pages/account/account-form.ts',
    name: 'baseDetailsSchema',
    shared: [{ module: 'src/core/account-schemas.ts', name: 'TIME_ZONE_LABELS' }],
  },
];

/**
 * Plugins' forms are found, not listed, so a plugin dropped in with its schemas needs no edit
 * here: every `schemas/<plugin>/config.schema.json` (a combination's config form, spec section 7)
 * and every `schemas/<plugin>/*.form.schema.json`. `npm run build` runs this script first.
 */
function pluginForms(): FormSchemaSource[] {
  const root = path.join(repo, 'schemas');
  const found: FormSchemaSource[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory() || dir.name === 'auth' || dir.name === 'account') continue;
    for (const file of readdirSync(path.join(root, dir.name)).sort()) {
      if (file === 'config.schema.json' || file.endsWith('.form.schema.json')) found.push({ module: `schemas/${dir.name}/${file}` });
    }
  }
  return found.sort((a, b) => a.module.localeCompare(b.module));
}

export const FORM_SCHEMAS: FormSchemaSource[] = [...CORE_FORMS, ...pluginForms()];

/**
 * The Ajv the forms validate with: @rjsf/validator-ajv8's own (its AJV_CONFIG: allErrors, verbose,
 * not strict; ajv-formats in full mode; its data-url and color formats), plus the `errorMessage`
 * keyword our schemas carry (read by src/core/validation-messages.ts). Node only.
 */
export function formAjv(code?: Options['code']): Ajv {
  const validator = customizeValidator({
    ajvFormatOptions: { mode: 'full' },
    ajvOptionsOverrides: code ? { code } : {},
    extenderFn: (ajv: Ajv) => {
      if (!ajv.getKeyword(ERROR_MESSAGE_KEYWORD)) ajv.addKeyword({ keyword: ERROR_MESSAGE_KEYWORD, schemaType: ['string', 'object'] });
      return ajv;
    },
  });
  return (validator as unknown as { ajv: Ajv }).ajv;
}

/** The root schema and every sub-schema rjsf validates on its own, by key (rjsf's schemaParser). */
function schemaMap(schema: RJSFSchema): Record<string, RJSFSchema> {
  if (typeof schema.$id !== 'string' || !schema.$id) throw new Error('A form schema needs a $id');
  return schemaParser(schema) as Record<string, RJSFSchema>;
}

/**
 * The validate functions of `schema` compiled in this process (Node): what the generated module
 * holds, for tests that validate schemas of their own.
 */
export function compileForm(schema: RJSFSchema): PrecompiledForm {
  const ajv = formAjv();
  const map = schemaMap(schema);
  ajv.addSchema(Object.values(map));
  const validateFns: ValidatorFunctions = {};
  for (const key of Object.keys(map)) validateFns[key] = ajv.getSchema(key)!;
  return { id: schema.$id!, schema, validateFns };
}

/**
 * A module of the repository by its path from the root: a JSON file read as its default export, a
 * TypeScript module through `require`. Not `import()`: the generator also runs inside webpack-cli,
 * which loads webpack.config.ts through tsx's CommonJS hook, and there `import()` goes to Node's
 * own ES module loader, which refuses a JSON file without an import attribute.
 */
function loadModule(module: string): Record<string, unknown> {
  const file = path.join(repo, module);
  if (file.endsWith('.json')) return { default: JSON.parse(readFileSync(file, 'utf8')) as unknown };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as Record<string, unknown>;
}

/** Loads a form schema from its module, as plain JSON. */
export async function loadFormSchema(source: FormSchemaSource): Promise<RJSFSchema> {
  const mod = loadModule(source.module);
  const exported = source.name ? mod[source.name] : ((mod.default as unknown) ?? mod);
  if (!exported || typeof exported !== 'object') throw new Error(`${source.module} has no export ${source.name ?? 'default'}`);
  const schema = JSON.parse(JSON.stringify(exported)) as RJSFSchema;
  if (typeof schema.$id !== 'string' || !schema.$id) throw new Error(`The form schema ${source.module} ${source.name ?? ''} needs a $id`);
  return schema;
}

/** A shared constant's value, as plain JSON (an array or an object). */
export async function loadSharedConstant(constant: SharedConstant): Promise<unknown> {
  const mod = loadModule(constant.module);
  const value = mod[constant.name];
  if (!value || typeof value !== 'object') throw new Error(`${constant.module} exports no JSON array or object ${constant.name}`);
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** The module file of a form, from its $id: "auth/login" → "auth-login.ts". */
export function moduleName(id: string): string {
  return `${id.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.ts`;
}

/**
 * Ajv's standalone code refers to its run-time helpers (ucs2length, deep equal, the ajv-formats
 * formats) with `require`; an ES module imports them instead.
 */
function importRuntime(code: string): string {
  const imports: string[] = [];
  const body = code.replace(/const (\w+) = require\("([^"]+)"\)((?:\.\w+)*);/g, (_m, name: string, from: string, member: string) => {
    const ns = `${name}_module`;
    imports.push(`import * as ${ns} from ${JSON.stringify(from)};`);
    return `const ${name} = ${ns}${member};`;
  });
  if (/\brequire\(/.test(body)) throw new Error('Unexpected require() left in the standalone code');
  return `${imports.join('\n')}\n${body.replace(/^"use strict";/, '')}`;
}

/**
 * The constant the standalone code keeps the root schema in (its verbose errors point into it as
 * `parentSchema`), so the module does not carry the schema twice.
 */
function rootSchemaVariable(code: string, exportName: string): string {
  const fn = new RegExp(`export const ${exportName} = (validate\\d+);`).exec(code)?.[1];
  const body = fn ? code.slice(code.indexOf(`function ${fn}(`)) : '';
  const variable = /parentSchema:(schema\d+)\b/.exec(body)?.[1];
  if (!variable) throw new Error('Could not find the root schema in the standalone code');
  return variable;
}

/** How Ajv's code generation writes a value into the standalone code (ajv/dist/compile/codegen `stringify`). */
function ajvJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Whether `code` has a value between `from` and `to`: after `:`, `,`, `[`, `(` or `=`, before `,`, `}`, `]`, `)` or `;`. */
function atValue(code: string, from: number, to: number): boolean {
  const before = /[:,[(=]\s*$/.test(code.slice(Math.max(0, from - 8), from));
  const after = /^\s*[,}\]);]/.test(code.slice(to, to + 8));
  return before && after;
}

/**
 * The standalone code with every exact JSON text of a shared constant, where it stands as a
 * value, replaced by the constant imported from its module: `{"enum":["(GMT-11:00) Pacific/Midway",...]}`
 * becomes `{"enum":shared_TIME_ZONE_LABELS}`. Only arrays and objects are shared (a string's or a
 * number's text could stand inside another value), and each must be found at least once, or the
 * source names it for nothing. Ajv only reads the schema values it keeps (the enum check, an
 * error's `schema` and `parentSchema`), so the validator behaves the same; the schema the module
 * exports holds the constant itself (equal to what was compiled, as the tests check).
 */
export function shareConstants(code: string, shared: ReadonlyArray<{ constant: SharedConstant; value: unknown }>): string {
  const imports: string[] = [];
  let body = code;
  for (const { constant, value } of shared) {
    if (!/^[A-Za-z_]\w*$/.test(constant.name)) throw new Error(`The shared constant "${constant.name}" is not an identifier`);
    if (!value || typeof value !== 'object') throw new Error(`The shared constant ${constant.name} is not a JSON array or object`);
    const local = `shared_${constant.name}`;
    if (new RegExp(`\\b${local}\\b`).test(body)) throw new Error(`The standalone code already has a ${local}`);
    const text = ajvJson(value);
    let out = '';
    let from = 0;
    let found = 0;
    for (let at = body.indexOf(text); at >= 0; at = body.indexOf(text, at + 1)) {
      if (at < from || !atValue(body, at, at + text.length)) continue;
      out += body.slice(from, at) + local;
      from = at + text.length;
      found++;
    }
    if (!found) throw new Error(`The standalone code holds no copy of ${constant.name} (${constant.module}): drop it from the form's shared constants`);
    body = out + body.slice(from);
    const target = path
      .relative(OUT_DIR, path.join(repo, constant.module))
      .replace(/\\/g, '/')
      .replace(/\.tsx?$/, '');
    imports.push(`import { ${constant.name} as ${local} } from ${JSON.stringify(target.startsWith('.') ? target : `./${target}`)};`);
  }
  return imports.length ? `${imports.join('\n')}\n${body}` : body;
}

/** The generated module's header line on its shared constants, if any. */
function sharedNote(source: FormSchemaSource): string {
  const names = (source.shared ?? []).map((c) => `${c.name} (${c.module})`);
  return names.length ? `\n * Imports ${names.join(', ')} where the schema holds it, rather than a copy.` : '';
}

/** The source of one form's module (`shared`: the values of the source's shared constants, in order). */
export function formModule(source: FormSchemaSource, schema: RJSFSchema, shared: unknown[] = []): string {
  const map = schemaMap(schema);
  const keys = Object.keys(map);
  const ajv = formAjv({ source: true, esm: true, lines: false });
  ajv.addSchema(Object.values(map));
  const exportNames = Object.fromEntries(keys.map((k, i) => [`validate_${i}`, k]));
  const constants = (source.shared ?? []).map((constant, i) => ({ constant, value: shared[i] }));
  if (constants.some((c) => c.value === undefined)) throw new Error(`The shared constants of ${source.module} were not loaded`);
  const code = shareConstants(importRuntime(standaloneCode(ajv, exportNames)), constants);
  const schemaVar = rootSchemaVariable(code, `validate_${keys.indexOf(schema.$id!)}`);
  const fns = keys.map((k, i) => `    ${JSON.stringify(k)}: validate_${i},`).join('\n');
  return `// @ts-nocheck
/* eslint-disable */
/**
 * Generated by schemas/generate-form-validators.ts (npm run forms:validators) from
 * ${source.module}${source.name ? ` (${source.name})` : ''}: do not edit.${sharedNote(source)}
 */
${code}

const form = {
  id: ${JSON.stringify(schema.$id)},
  schema: ${schemaVar},
  validateFns: {
${fns}
  },
};
export default form as import('../precompiled-form').PrecompiledForm;
`;
}

/** index.ts: each form's module by $id, loaded on demand. */
function indexModule(ids: string[]): string {
  const rows = ids.map(
    (id) =>
      `  ${JSON.stringify(id)}: () => import(/* webpackChunkName: "form-${moduleName(id).replace(/\.ts$/, '')}" */ './${moduleName(id).replace(/\.ts$/, '')}').then((m) => m.default),`,
  );
  return `/* eslint-disable */
/** Generated by schemas/generate-form-validators.ts (npm run forms:validators): do not edit. */
import type { PrecompiledForm } from '../precompiled-form';

/** The precompiled validators of every form, by the $id of its schema. */
export const PRECOMPILED_FORMS: Record<string, () => Promise<PrecompiledForm>> = {
${rows.join('\n')}
};
`;
}

/** Every generated file, by name. */
export async function generateFormValidators(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const ids: string[] = [];
  for (const source of FORM_SCHEMAS) {
    const schema = await loadFormSchema(source);
    if (ids.includes(schema.$id!)) throw new Error(`Two form schemas share the $id ${schema.$id}`);
    ids.push(schema.$id!);
    const shared = await Promise.all((source.shared ?? []).map(loadSharedConstant));
    files.set(moduleName(schema.$id!), formModule(source, schema, shared));
  }
  files.set('index.ts', indexModule(ids));
  return files;
}

/**
 * Writes the generated files into `outDir`, touching only those whose text changed and removing
 * files no form generates any more; returns the names written and removed. Each file is written
 * to a temporary name and renamed, so a reader running at the same time (another Jest run, a
 * webpack watch) never sees half a file.
 */
export async function writeFormValidators(outDir = OUT_DIR): Promise<{ written: string[]; removed: string[]; total: number }> {
  const files = await generateFormValidators();
  mkdirSync(outDir, { recursive: true });
  const removed: string[] = [];
  for (const name of readdirSync(outDir)) {
    if (files.has(name) || name.startsWith('.')) continue;
    rmSync(path.join(outDir, name), { force: true });
    removed.push(name);
  }
  const written: string[] = [];
  for (const [name, code] of files) {
    const file = path.join(outDir, name);
    if (existsSync(file) && readFileSync(file, 'utf8') === code) continue;
    const tmp = path.join(outDir, `.${name}.${process.pid}.tmp`); // a dot name: never taken for a stale file
    writeFileSync(tmp, code);
    renameSync(tmp, file);
    written.push(name);
  }
  return { written, removed, total: files.size };
}

if (require.main === module) {
  writeFormValidators().then(
    ({ written, removed, total }) => {
      const where = path.relative(process.cwd(), OUT_DIR) || OUT_DIR;
      console.log(
        written.length || removed.length
          ? `form validators: wrote ${written.length} of ${total} files to ${where}${removed.length ? `, removed ${removed.join(', ')}` : ''}`
          : `form validators: ${total} files in ${where} are up to date`,
      );
    },
    (e: unknown) => {
      console.error(`form validators: ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
