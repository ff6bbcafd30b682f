/**
 * @jest-environment node
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RJSFSchema } from '@rjsf/utils';
import { compileForm, FORM_SCHEMAS, generateFormValidators, loadFormSchema, moduleName, OUT_DIR } from '../../../schemas/generate-form-validators';
import { precompiledValidator, type PrecompiledForm } from '../../../src/app/forms/validator';
import { PRECOMPILED_FORMS } from '../../../src/app/forms/precompiled';
import detailsForm from '../../../src/app/forms/precompiled/account-details-form';
import reconciliationForm from '../../../src/app/forms/precompiled/invoice-reconciliation-config';
import { baseDetailsSchema, detailsSchema } from '../../../src/app/pages/account/account-form';
import { TIME_ZONE_LABELS } from '../../../src/core/account-schemas';
import reconciliationSchema from '../../../schemas/invoice-reconciliation/config.schema.json';

const repo = path.resolve(__dirname, '../../..');

/** What a form shows for `data`: each error's field and sentence. */
const messages = (form: PrecompiledForm, schema: RJSFSchema, data: unknown) =>
  precompiledValidator(form, schema)
    .validateFormData(data, schema)
    .errors.map((e) => [e.property, e.message]);

/** Bad values for every property of a form: empty, too long, the wrong type, a NUL byte. */
function badInputs(schema: RJSFSchema): unknown[] {
  const props = Object.keys(schema.properties ?? {});
  return [
    {},
    Object.fromEntries(props.map((p) => [p, ''])),
    Object.fromEntries(props.map((p) => [p, 'x'.repeat(300)])),
    Object.fromEntries(props.map((p) => [p, 42])),
    Object.fromEntries(props.map((p) => [p, 'a\u0000b'])),
    Object.fromEntries(props.map((p) => [p, 'not-an-address@'])),
    { unknown: true },
  ];
}

describe('precompiled form validators', () => {
  it("src/app/forms/precompiled is what the form schemas generate (Jest's global setup and the build write it; it is not committed)", async () => {
    const files = await generateFormValidators();
    expect(readdirSync(OUT_DIR).sort()).toEqual([...files.keys()].sort());
    for (const [name, code] of files) expect([name, readFileSync(path.join(OUT_DIR, name), 'utf8')]).toEqual([name, code]);
  });

  it('holds each form under the $id of its schema, with the schema it was compiled from', async () => {
    for (const source of FORM_SCHEMAS) {
      const schema = await loadFormSchema(source);
      const form = await PRECOMPILED_FORMS[schema.$id!]();
      expect(form.id).toBe(schema.$id);
      expect(form.schema).toEqual(schema);
      expect(moduleName(form.id)).toMatch(/^[a-z0-9-]+\.ts$/);
    }
  });

  it('gives the same sentences as Ajv compiling the schema at run time, for every form', async () => {
    for (const source of FORM_SCHEMAS) {
      const schema = await loadFormSchema(source);
      const generated = await PRECOMPILED_FORMS[schema.$id!]();
      const compiled = compileForm(schema);
      for (const data of badInputs(schema)) {
        const ours = messages(generated, schema, data);
        expect([schema.$id, data, ours]).toEqual([schema.$id, data, messages(compiled, schema, data)]);
      }
    }
  });

  it('checks choice lists known only at run time: a user’s retired role and older time zone', () => {
    const schema = detailsSchema({ Role: 77, Time_zone: '(GMT+01:00) Europe/Old_Town' });
    const fine = { name: 'Ada', email: 'ada@example.com', currency: 'EUR', time_zone: '(GMT+01:00) Europe/Old_Town', role: 77 };
    expect(messages(detailsForm, schema, fine)).toEqual([]);
    const wrong = { ...fine, time_zone: 'Mars/Olympus_Mons', role: 78 };
    const base = messages(detailsForm, baseDetailsSchema, wrong);
    expect(base).toEqual(expect.arrayContaining([['.time_zone', 'Please choose one of the options.']]));
    // the same sentences as the compiled lists give
    expect(messages(detailsForm, schema, wrong).sort()).toEqual(base.sort());
    // and the same as Ajv compiling the changed schema
    expect(messages(detailsForm, schema, wrong).sort()).toEqual(messages(compileForm(schema), schema, wrong).sort());
    // the roles' option checks (rjsf's isValid on each oneOf option) know the added one
    const v = precompiledValidator(detailsForm, schema);
    const added = (schema.properties!.role as RJSFSchema).oneOf!.at(-1) as RJSFSchema;
    expect(v.isValid(added, 77, schema)).toBe(true);
    expect(v.isValid(added, 78, schema)).toBe(false);
  });

  it('imports the time zone list the page ships rather than a copy, and still refuses an unknown time zone', () => {
    const code = readFileSync(path.join(OUT_DIR, 'account-details-form.ts'), 'utf8');
    expect(code).toContain('import { TIME_ZONE_LABELS as shared_TIME_ZONE_LABELS } from "../../../core/account-schemas";');
    // not one label of the list is written out in the module
    expect(TIME_ZONE_LABELS.filter((label) => code.includes(JSON.stringify(label)))).toEqual([]);
    expect((detailsForm.schema.properties!.time_zone as RJSFSchema).enum).toBe(TIME_ZONE_LABELS);
    const data = { name: 'Ada', email: 'ada@example.com', currency: 'EUR', role: 1 };
    expect(messages(detailsForm, baseDetailsSchema, { ...data, time_zone: TIME_ZONE_LABELS[7] })).toEqual([]);
    const wrong = { ...data, time_zone: 'Mars/Olympus_Mons' };
    const ours = messages(detailsForm, baseDetailsSchema, wrong);
    expect(ours).toContainEqual(['.time_zone', 'Please choose one of the options.']);
    expect(ours).toEqual(messages(compileForm(baseDetailsSchema), baseDetailsSchema, wrong));
  });

  it('checks the key columns of an uploaded file as choices (the reconciliation config form)', () => {
    const schema = structuredClone(reconciliationSchema) as RJSFSchema & { properties: Record<string, RJSFSchema> };
    schema.properties.INVOICE_PRIMARY_KEY.enum = ['PO Number', 'Invoice Id'];
    const data = { INVOICE_PRIMARY_KEY: 'Amount', EMAIL_TONE_OF_VOICE_MATCHED: 'friendly' };
    const ours = messages(reconciliationForm, schema, data);
    expect(ours).toEqual(expect.arrayContaining([['.INVOICE_PRIMARY_KEY', 'Please choose one of the options.']]));
    expect(ours.sort()).toEqual(messages(compileForm(schema), schema, data).sort());
    expect(messages(reconciliationForm, schema, { ...data, INVOICE_PRIMARY_KEY: 'PO Number' })).not.toContainEqual(['.INVOICE_PRIMARY_KEY', expect.anything()]);
  });

  it('refuses a schema changed outside its choice lists, saying how to recompile', () => {
    const schema = detailsSchema({ Role: 1, Time_zone: '' });
    const changed = { ...schema, properties: { ...schema.properties, name: { type: 'string', title: 'Name', maxLength: 3 } } } as RJSFSchema;
    expect(() => precompiledValidator(detailsForm, changed)).toThrow(/differs from its precompiled validator at #\/properties\/name.*npm run forms:validators/);
  });

  it('ships no Ajv compiler to the browser: the app and core import Ajv for types only', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name)) {
          const source = readFileSync(file, 'utf8');
          const runtime = source.match(/^import (?!type\b)[^;]*from '(ajv|ajv-formats|ajv\/dist\/(?!runtime\/)[^']*)';/gm) ?? [];
          const customised = /\bcustomizeValidator\b/.test(source);
          if (runtime.length || customised) offenders.push(path.relative(repo, file));
        }
      }
    };
    walk(path.join(repo, 'src/app'));
    walk(path.join(repo, 'src/core'));
    expect(offenders).toEqual([]);
  });
});
