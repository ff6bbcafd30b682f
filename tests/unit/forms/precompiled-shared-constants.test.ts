/**
 * @jest-environment node
 */
import { FORM_SCHEMAS, loadSharedConstant, shareConstants, type SharedConstant } from '../../../schemas/generate-form-validators';
import { TIME_ZONE_LABELS } from '../../../src/core/account-schemas';

/** schemas/generate-form-validators.ts: a form source's shared constants, imported where the standalone code holds their JSON. */
describe('shared constants of the precompiled form validators', () => {
  const LIST: SharedConstant = { module: 'src/core/lists.ts', name: 'COLOURS' };
  const colours = ['red', 'green'];

  it('imports the constant wherever its JSON text stands as a value', () => {
    const code = 'const schema1 = {"enum":["red","green"]};const schema2 = {"items":[["red","green"],1]};validate(x, ["red","green"]);';
    const out = shareConstants(code, [{ constant: LIST, value: colours }]);
    expect(out).toBe(
      'import { COLOURS as shared_COLOURS } from "../../../core/lists";\n' +
        'const schema1 = {"enum":shared_COLOURS};const schema2 = {"items":[shared_COLOURS,1]};validate(x, shared_COLOURS);',
    );
  });

  it('leaves the text alone inside a string, a longer list or anywhere not a whole value', () => {
    const code = 'const a = {"description":"x:[\\"red\\",\\"green\\"]"};const b = {"enum":["red","green","blue"]};/* ["red","green"]x */';
    expect(() => shareConstants(code, [{ constant: LIST, value: colours }])).toThrow(/holds no copy of COLOURS \(src\/core\/lists.ts\)/);
    const shared = shareConstants(`${code}const d = {"enum":["red","green"]};`, [{ constant: LIST, value: colours }]);
    expect(shared.endsWith('const d = {"enum":shared_COLOURS};')).toBe(true);
    expect(shared).toContain('const b = {"enum":["red","green","blue"]};');
  });

  it('writes the text as Ajv does (U+2028 and U+2029 escaped)', () => {
    const value = ['a\u2028b'];
    expect(shareConstants('const s = {"enum":["a\\u2028b"]};', [{ constant: LIST, value }])).toContain('{"enum":shared_COLOURS}');
  });

  it('shares only arrays and objects exported under an identifier, with a name of its own', () => {
    expect(() => shareConstants('const s = {"const":"red"};', [{ constant: LIST, value: 'red' }])).toThrow(/not a JSON array or object/);
    expect(() => shareConstants('const s = [1];', [{ constant: { ...LIST, name: 'a-b' }, value: [1] }])).toThrow(/not an identifier/);
    expect(() => shareConstants('const shared_COLOURS = 1;const s = ["red","green"];', [{ constant: LIST, value: colours }])).toThrow(
      /already has a shared_COLOURS/,
    );
  });

  it('leaves code with no shared constants as it is', () => {
    expect(shareConstants('const s = 1;', [])).toBe('const s = 1;');
  });

  it('loads a constant as plain JSON, and says when a module has no such export', async () => {
    await expect(loadSharedConstant({ module: 'src/core/account-schemas.ts', name: 'TIME_ZONE_LABELS' })).resolves.toEqual(TIME_ZONE_LABELS);
    await expect(loadSharedConstant({ module: 'src/core/account-schemas.ts', name: 'NO_SUCH_LIST' })).rejects.toThrow(
      /exports no JSON array or object NO_SUCH_LIST/,
    );
  });

  it('shares the time zone list with the account details form', () => {
    const details = FORM_SCHEMAS.find((s) => s.name === 'baseDetailsSchema');
    expect(details?.shared).toEqual([{ module: 'src/core/account-schemas.ts', name: 'TIME_ZONE_LABELS' }]);
  });
});
