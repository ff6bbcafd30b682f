/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs';
import { generateWireTypes, OUTPUT } from '../../../schemas/generate-wire-types';

describe('wire types', () => {
  it('src/core/wire-types.ts is what the schemas generate (run `npm run schemas:types` after editing a schema)', async () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(await generateWireTypes());
  });
});
