import type { RJSFSchema } from '@rjsf/utils';
import registerSchema from '../../../schemas/auth/register.schema.json';
import { precompiledValidator, readableMessage } from '../../../src/app/forms/validator';
import { compileForm } from '../../../schemas/generate-form-validators';

/** The messages of the precompiled validator of `schema` (compiled here as the build compiles the app's forms). */
const messagesFor = (schema: RJSFSchema, data: unknown) => {
  const withId = { $id: 'test/form', ...schema } as RJSFSchema;
  return precompiledValidator(compileForm(withId))
    .validateFormData(data, withId)
    .errors.map((e) => [e.property, e.message]);
};

describe('form validator', () => {
  it('uses a schema errorMessage (string form) in place of Ajv’s message', () => {
    const schema = { type: 'object', properties: { password: registerSchema.properties.password } } as RJSFSchema;
    expect(messagesFor(schema, { password: 'short' })).toEqual([['.password', 'Passwords must be at least 8 characters long.']]);
  });

  it('supports the keyword-map form of errorMessage and per-property required messages', () => {
    const schema: RJSFSchema = {
      type: 'object',
      required: ['code'],
      errorMessage: { required: { code: 'Enter the code from your email.' } },
      properties: { code: { type: 'string', pattern: '^[0-9]{6}$', errorMessage: { pattern: 'The code has six digits.' } } },
    } as RJSFSchema;
    expect(messagesFor(schema, {})).toEqual([['code', 'Enter the code from your email.']]);
    expect(messagesFor(schema, { code: '12' })).toEqual([['.code', 'The code has six digits.']]);
  });

  it('checks formats from ajv-formats, in readable English', () => {
    const schema: RJSFSchema = { type: 'object', properties: { email: { type: 'string', format: 'email' }, site: { type: 'string', format: 'uri' } } };
    expect(messagesFor(schema, { email: 'nope', site: 'also nope' })).toEqual([
      ['.email', 'Please enter a valid email address.'],
      ['.site', 'Please enter a valid web address.'],
    ]);
    expect(messagesFor(schema, { email: 'ada@example.com', site: 'https://example.com' })).toEqual([]);
  });

  it('turns the common Ajv keywords into sentences', () => {
    const schema: RJSFSchema = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        nick: { type: 'string', maxLength: 3 },
        code: { type: 'string', minLength: 4 },
        pick: { type: 'string', enum: ['a', 'b'] },
        age: { type: 'integer', minimum: 18 },
      },
    };
    expect(messagesFor(schema, { nick: 'toolong', code: 'abc', pick: 'c', age: 12 })).toEqual([
      ['name', 'This field is required.'],
      ['.nick', 'Must be at most 3 characters long.'],
      ['.code', 'Must be at least 4 characters long.'],
      ['.pick', 'Please choose one of the options.'],
      ['.age', 'Must be 18 or more.'],
    ]);
  });

  it('falls back to a capitalised sentence for keywords it does not know', () => {
    expect(readableMessage({ keyword: 'uniqueItems', message: 'must NOT have duplicate items', params: {}, instancePath: '', schemaPath: '' })).toBe(
      'Must NOT have duplicate items.',
    );
  });
});
