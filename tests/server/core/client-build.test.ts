import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientInputsHash } from '../../../src/server/client-build';

describe('npm start builds the client only when its sources changed', () => {
  let root: string;
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'client-build-'));
    put('package.json', '{}');
    put('webpack.config.ts', 'export default {}');
    put('src/app/main.tsx', 'render()');
    put('src/server/app.ts', 'serve()');
    put('plugins/x/index.ts', 'view()');
    put('plugins/x/server.ts', 'route()');
    put('schemas/x/form.schema.json', '{}');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('keeps the same hash when nothing changed, or only server code', () => {
    const before = clientInputsHash(root);
    expect(clientInputsHash(root)).toBe(before);
    put('src/server/app.ts', 'serve(2)');
    put('plugins/x/server.ts', 'route(2)');
    put('plugins/x/view.test.tsx', 'test()');
    expect(clientInputsHash(root)).toBe(before);
  });

  it("leaves out the forms' validators the build generates from schemas/ (not committed, so a fresh clone hashes as a built tree)", () => {
    const before = clientInputsHash(root);
    put('src/app/forms/precompiled/index.ts', 'export const PRECOMPILED_FORMS = {};');
    put('src/app/forms/precompiled/x-form.ts', 'export default {};');
    expect(clientInputsHash(root)).toBe(before);
    put('schemas/generate-form-validators.ts', 'generate()');
    expect(clientInputsHash(root)).not.toBe(before);
  });

  it.each(['src/app/main.tsx', 'plugins/x/index.ts', 'schemas/x/form.schema.json', 'webpack.config.ts', 'package.json', 'plugins/y/new.tsx'])(
    'changes when %s changes',
    (rel) => {
      const before = clientInputsHash(root);
      put(rel, 'changed');
      expect(clientInputsHash(root)).not.toBe(before);
    },
  );
});
