import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { T, type TextTask } from '../../../src/server';
import { connectAccount, createUser, fake, recipeOf, startPluginServer, TEST_IDS, type TestServer } from '../../../src/server/testing';

const repo = path.resolve(__dirname, '../../..');
const WORKFLOW = TEST_IDS.first + 10;
const COMBINATION = TEST_IDS.first + 10;

/**
 * The server's testing face (src/server/testing) on a plugin written to a folder of its own: the
 * core catalogue plus that one plugin on a real PGlite, a typed partial fake of a core service,
 * and a recipe driven through its webhook with each step's output read back.
 */
describe('the testing face of the server', () => {
  const root = path.join(repo, '.tmp', `testing-kit-${process.pid}-${Date.now()}`);
  const pluginsDir = path.join(root, 'plugins');
  const asked: TextTask[] = [];
  let server: TestServer;

  beforeAll(async () => {
    const dir = path.join(pluginsDir, 'test-kit');
    mkdirSync(dir, { recursive: true });
    const face = path.relative(dir, path.join(repo, 'src/server')).replace(/\\/g, '/');
    writeFileSync(
      path.join(dir, 'server.ts'),
      `import { defineServerPlugin, contribute, AutomationActions, T, SOLUTIONS, connectors, trigger, AI_PROVIDER } from '${face}';
export default defineServerPlugin({
  id: 'test-kit',
  needs: { text: T.TextGenerator },
  catalogue: {
    workflows: [{ id: ${WORKFLOW}, solution_id: SOLUTIONS.finance.id, name: 'Kit Workflow', descrption: 'For the testing kit.', icon: 'document' }],
    combinations: [{
      id: ${COMBINATION}, workflow_id: ${WORKFLOW}, order: 1, name: 'Kit combination', sub_title: 'Greets', icon: 'document',
      created_time: '2026-11-26T10:00:00Z', status: 'active', enabled: true, recommended: false,
      triggers: [trigger('file_uploaded')], connectors: connectors('manual_upload', AI_PROVIDER),
      recipe: { name: 'Kit recipe', description: 'Greets a name.', steps: [
        { kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' },
        { kind: 'action', provider: 'test_kit', action: 'greet' },
      ] },
    }],
  },
  contributes: [contribute(AutomationActions, {
    provider: 'test_kit', action: 'greet', name: 'Greet the name',
    async run(input: { data?: { person?: string } }) { const name = String(input.data?.person ?? ''); return { greeting: 'Hello, ' + (name || 'nobody') + '!', letters: name.length }; },
  })],
  routes(app, { text }) {
    app.post('/api/plugins/test-kit/greet', { auth: 'user' }, async (request) => {
      const name = String((request.body as { name?: string }).name ?? '');
      return text.generate({ name: 'test-kit.greet', system: 'Greet.', prompt: name, template: () => 'Hello' });
    });
  },
});
`,
    );
    server = await startPluginServer('test-kit', {
      pluginsDir,
      with: ['connectors'],
      env: { SANDBOX_PROVIDERS: 'true' },
      fakes: [fake(T.TextGenerator, { generate: async (task) => (asked.push(task), { text: `Dear ${task.prompt}`, source: 'llm' }) })],
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('starts the core catalogue plus the one plugin, with the typed fake in place of the core service', async () => {
    const user = await createUser(server);
    const wf = await server.call('GET', `/api/platform/workflows/${WORKFLOW}/`, { token: user.access });
    expect([wf.status, wf.body.name, wf.body.combinations.map((c: { id: number }) => c.id)]).toEqual([200, 'Kit Workflow', [COMBINATION]]);
    // of the repository's plugins only the core catalogue and those asked `with` are loaded, then the plugin under test
    const ids = server.container.get(T.ServerPlugins).map((p) => p.id);
    expect(ids.filter((id) => existsSync(path.join(repo, 'plugins', id)) || id === 'test-kit')).toEqual(['catalogue-core', 'connectors', 'test-kit']);
    const res = await server.call('POST', '/api/plugins/test-kit/greet', { token: user.access, body: { name: 'Ada' } });
    expect(res).toMatchObject({ status: 200, body: { text: 'Dear Ada', source: 'llm' } });
    expect(asked.map(({ name, system, prompt }) => ({ name, system, prompt }))).toEqual([{ name: 'test-kit.greet', system: 'Greet.', prompt: 'Ada' }]);
  });

  it("drives a recipe: trigger through its webhook, wait for the job, read each step's output", async () => {
    const recipe = await recipeOf(server, COMBINATION);
    const note = (person: string) => ({ person, name: 'note.txt', binary: Buffer.from(`for ${person}`).toString('base64') }); // the upload trigger wants a file
    const run = await recipe.run(note('Grace'));
    expect(run.job).toMatchObject({ status: 'succeeded', recipe_id: recipe.recipeId, combination_id: COMBINATION, title: 'Kit recipe', error: null });
    expect(run.steps.map((s) => [s.index, `${s.provider}:${s.action}`, s.status])).toEqual([
      [0, 'manual_upload:file_uploaded', 'succeeded'],
      [1, 'test_kit:greet', 'succeeded'],
    ]);
    expect(run.output(1)).toEqual({ greeting: 'Hello, Grace!', letters: 5 });
    expect(() => run.output(2)).toThrow(`Job ${run.job.id} has no step 2 (steps 0-1)`);

    // a run started some other way (here the webhook again, as a push trigger would): the recipe's next job
    const next = await recipe.nextJob(() => server.call('POST', recipe.webhookPath, { body: note('Lin') }));
    expect(next.output(1)).toEqual({ greeting: 'Hello, Lin!', letters: 3 });

    await recipe.stop();
    await expect(recipe.trigger(note('late'))).rejects.toThrow(`webhook of recipe ${recipe.recipeId}: HTTP 409`);
  });

  it("connects a user's account of an OAuth connector through its sandbox", async () => {
    const user = await createUser(server, { email: 'kit-sheets@example.com' });
    expect(await connectAccount(server, user, 'google_sheets')).toEqual({
      provider: 'google_sheets',
      name: 'Google Sheets',
      account: 'kit-sheets@example.com',
    });
    await expect(connectAccount(server, user, 'no_such_app')).rejects.toThrow('Connect no_such_app: HTTP 404');
  });

  it('says what is wrong with a plugin it cannot load, and with a combination no plugin declares', async () => {
    await expect(startPluginServer('test-missing', { pluginsDir })).rejects.toThrow(`There is no ${path.join(pluginsDir, 'test-missing')}/server.ts`);
    await expect(recipeOf(server, TEST_IDS.first + 11)).rejects.toThrow(`The user has no recipe of combination ${TEST_IDS.first + 11}`);
  });
});
