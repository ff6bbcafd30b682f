import { defineServerPlugin, type ServerPlugin } from '../../../src/server/plugin';
import { contribute } from '../../../src/core/contributions';
import { Connectors } from '../../../src/server/connections/kinds';
import { CatalogueTriggers } from '../../../src/server/catalogue/kinds';
import { googleDriveNewFile, manualUpload } from '../../../plugins/connectors/declarations';
import type { CombinationSeed, WorkflowSeed } from '../../../src/server/catalogue/types';
import { collectCatalogue } from '../../../src/server/catalogue';
import { trigger } from '../../../src/server/catalogue/building-blocks';
import { discoverServerPlugins } from '../../../src/server/plugin-loader';
import type { Db } from '../../../src/server/db/database';
import { createUser } from '../../support/server';
import { openSharedDatabase, PLUGINS_DIR, startOn } from './support';

jest.setTimeout(60_000);

const solutionPlugin = defineServerPlugin({
  id: 'fixture-solutions',
  catalogue: {
    solutions: [
      {
        id: 901,
        name: 'Fixture Solution',
        descrption: 'For tests.',
        icon: 'finance',
        status: 'active',
        author_first_name: 'Ada',
        created_time: '2024-01-01T00:00:00Z',
      },
    ],
  },
});

function workflow(id: number, name: string): WorkflowSeed {
  return { id, solution_id: 901, name, descrption: `${name} for tests.`, icon: 'document' };
}

function combination(id: number, workflow_id: number, over: Partial<CombinationSeed> = {}): CombinationSeed {
  return {
    id,
    workflow_id,
    order: 1,
    name: `Fixture combination ${id}`,
    sub_title: 'For tests',
    icon: 'document',
    created_time: '2024-01-02T00:00:00Z',
    status: 'coming_soon',
    enabled: true,
    recommended: false,
    connectors: [
      { id: 6, name: 'Flowmatic AI', icon: 'flowmatic_ai', order: 2, provider: 'flowmatic_ai' },
      { id: 4, name: 'Manual upload', icon: 'manual_upload', order: 1, provider: 'manual_upload' },
    ],
    triggers: [trigger('file_uploaded')],
    recipe: { name: 'Fixture', description: 'Fixture recipe.', steps: [{ kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded' }] },
    ...over,
  };
}

/** The manual upload connector the fixtures name, declared as the connectors plugin does (the catalogue takes its id and name from it). */
const uploadConnector = defineServerPlugin({ id: 'fixture-upload-connector', contributes: [contribute(Connectors, manualUpload)] });

const pluginA = defineServerPlugin({ id: 'fixture-a', catalogue: { workflows: [workflow(9001, 'Alpha Workflow')], combinations: [combination(9101, 9001)] } });
const pluginB = defineServerPlugin({ id: 'fixture-b', catalogue: { workflows: [workflow(9002, 'Beta Workflow')], combinations: [combination(9102, 9002)] } });

describe('catalogue seeding', () => {
  let db: Db;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    ({ db, drop } = await openSharedDatabase());
  });
  afterEach(() => drop());

  async function withServer<T>(plugins: ServerPlugin[], fn: (s: Awaited<ReturnType<typeof startOn>>) => Promise<T>): Promise<T> {
    const server = await startOn(db, plugins.some((p) => p.id === 'connectors') ? plugins : [uploadConnector, ...plugins]);
    try {
      return await fn(server);
    } finally {
      await server.close();
    }
  }

  const snapshot = async () => ({
    solutions: await db.selectFrom('solutions').select(['id', 'name', 'plugin_id', 'hidden']).orderBy('id').execute(),
    workflows: await db.selectFrom('workflows').select(['id', 'name', 'solution_id', 'plugin_id', 'hidden']).orderBy('id').execute(),
    combinations: await db
      .selectFrom('combinations')
      .select(['id', 'name', 'workflow_id', 'plugin_id', 'hidden', 'connectors', 'recipe'])
      .orderBy('id')
      .execute(),
  });

  it('upserts the real catalogue idempotently across restarts on one database', async () => {
    const plugins = await discoverServerPlugins(PLUGINS_DIR);
    const first = await withServer(plugins, async () => snapshot());
    expect(first.combinations.length).toBeGreaterThanOrEqual(15);
    expect(first.combinations.find((c) => c.id === 1)).toMatchObject({ plugin_id: 'invoice-extraction', hidden: false });
    expect(first.solutions.find((s) => s.id === 1)).toMatchObject({ plugin_id: 'catalogue-core' });
    const second = await withServer(plugins, async (s) => {
      const u = await createUser(s);
      const res = await s.call('GET', '/api/platform/combinations', { token: u.access });
      expect(res.body).toHaveLength(first.combinations.length);
      return snapshot();
    });
    expect(second).toEqual(first);
  });

  it('records the contributing plugin, hides the entries of a removed plugin and keeps their votes', async () => {
    let voter!: { id: number; access: string };
    await withServer([solutionPlugin, pluginA, pluginB], async (s) => {
      const u = await createUser(s);
      voter = u;
      const vote = await s.call('POST', '/api/platform/votes', { token: u.access, body: { combination_id: 9102 } });
      expect(vote.status).toBe(201);
      const rows = await snapshot();
      expect(rows.combinations.map((c) => [c.id, c.plugin_id, c.hidden])).toEqual([
        [9101, 'fixture-a', false],
        [9102, 'fixture-b', false],
      ]);
      expect(rows.combinations[0].connectors.map((k: { order: number }) => k.order)).toEqual([2, 1]);
    });

    // restart without fixture-b: its workflow and combination disappear from every endpoint
    await withServer([solutionPlugin, pluginA], async (s) => {
      const as = { token: voter.access };
      const combos = await s.call('GET', '/api/platform/combinations', as);
      expect(combos.body.map((c: any) => c.id)).toEqual([9101]);
      expect(combos.body[0].connectors.map((k: any) => k.order)).toEqual([1, 2]);
      expect((await s.call('GET', '/api/platform/combination/9102/', as)).status).toBe(404);
      expect((await s.call('GET', '/api/platform/workflows/9002/', as)).status).toBe(404);
      expect((await s.call('GET', '/api/platform/solution/901/', as)).body.workflows.map((w: any) => w.id)).toEqual([9001]);
      const search = await s.call('POST', '/api/platform/searchWorkflowTemplate', { ...as, body: { SolutionId: 901, Query: 'beta' } });
      expect(search.body).toEqual([]);
      expect((await s.call('GET', '/api/platform/votes', as)).body).toEqual([]);
      expect((await s.call('POST', '/api/platform/votes', { ...as, body: { combination_id: 9102 } })).status).toBe(404);
      const rows = await snapshot();
      expect(rows.combinations.find((c) => c.id === 9102)).toMatchObject({ hidden: true, plugin_id: 'fixture-b' });
    });
    expect(await db.selectFrom('votes').selectAll().where('combination_id', '=', 9102).execute()).toHaveLength(1);

    // fixture-b comes back: so does its entry, with the vote it had
    await withServer([solutionPlugin, pluginA, pluginB], async (s) => {
      const one = await s.call('GET', '/api/platform/combination/9102/', { token: voter.access });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ votes: 1, my_vote: true });
    });
  });

  it('hides workflows whose solution no plugin contributes, and their combinations', async () => {
    await withServer([pluginA], async (s) => {
      const u = await createUser(s);
      expect((await s.call('GET', '/api/platform/combinations', { token: u.access })).body).toEqual([]);
      expect((await s.call('GET', '/api/platform/workflows/9001/', { token: u.access })).status).toBe(404);
      const rows = await snapshot();
      expect(rows.workflows).toEqual([expect.objectContaining({ id: 9001, hidden: true })]);
    });
  });

  it('picks up changed catalogue text on the next start', async () => {
    await withServer([solutionPlugin, pluginA], async () => undefined);
    const renamed = defineServerPlugin({
      id: 'fixture-a',
      catalogue: { workflows: [workflow(9001, 'Alpha Renamed')], combinations: [combination(9101, 9001, { name: 'Renamed', status: 'active' })] },
    });
    await withServer([solutionPlugin, renamed], async () => undefined);
    const rows = await snapshot();
    expect(rows.workflows[0].name).toBe('Alpha Renamed');
    expect(rows.combinations[0]).toMatchObject({ name: 'Renamed', hidden: false });
  });

  it('fails start-up when two plugins claim one combination id, naming both', async () => {
    const clash = defineServerPlugin({ id: 'fixture-clash', catalogue: { combinations: [combination(9101, 9001)] } });
    await expect(startOn(db, [uploadConnector, solutionPlugin, pluginA, clash])).rejects.toThrow(
      'Combination "9101" is contributed by both plugin "fixture-a" and plugin "fixture-clash"',
    );
    // the same for workflows and solutions
    const wf = defineServerPlugin({ id: 'fixture-wf', catalogue: { workflows: [workflow(9001, 'Again')] } });
    await expect(startOn(db, [uploadConnector, solutionPlugin, pluginA, wf])).rejects.toThrow(/Workflow "9001".*"fixture-a".*"fixture-wf"/);
    expect(() => collectCatalogue([solutionPlugin, defineServerPlugin({ id: 'fixture-sol', catalogue: solutionPlugin.catalogue })])).toThrow(
      /Solution "901".*"fixture-solutions".*"fixture-sol"/,
    );
  });

  it('fails start-up on a malformed contribution, naming the plugin', async () => {
    const bad = defineServerPlugin({ id: 'fixture-bad', catalogue: { combinations: [combination(9103, 9001, { status: 'soon' as 'active' })] } });
    await expect(startOn(db, [bad])).rejects.toThrow(/plugin "fixture-bad".*status/);
    const twice = defineServerPlugin({ id: 'fixture-twice', catalogue: { combinations: [combination(9104, 9001), combination(9104, 9001)] } });
    expect(() => collectCatalogue([uploadConnector, twice])).toThrow('The catalogue of plugin "fixture-twice" is not valid: Combination 9104 is listed twice');
    const badProvider = defineServerPlugin({
      id: 'fixture-provider',
      catalogue: { combinations: [combination(9105, 9001, { connectors: [{ id: 1, name: 'Evil', icon: 'x', order: 1, provider: 'http://evil' }] })] },
    });
    expect(() => collectCatalogue([badProvider])).toThrow(/fixture-provider/);
  });

  it("takes each connector's id and name from its declaration, and fails on a provider nobody declares", () => {
    const named = defineServerPlugin({
      id: 'fixture-named',
      catalogue: {
        combinations: [
          combination(9106, 9001, {
            connectors: [
              { provider: 'manual_upload', order: 1 },
              { provider: 'flowmatic_ai', order: 2 },
            ],
          }),
        ],
      },
    });
    expect(collectCatalogue([uploadConnector, named]).combinations[0].entry.connectors).toEqual([
      { id: 4, name: 'Manual upload', icon: 'manual_upload', provider: 'manual_upload', order: 1 },
      { id: 6, name: 'Flowmatic AI', icon: 'flowmatic_ai', provider: 'flowmatic_ai', order: 2 },
    ]);
    // the core knows the AI steps' connector only: without the connectors plugin, manual upload is nobody's
    expect(() => collectCatalogue([named])).toThrow(
      'The catalogue of plugin "fixture-named" is not valid: combination 9106 names the connector "manual_upload", which no running plugin declares',
    );
    const renamed = defineServerPlugin({
      id: 'fixture-renamed',
      catalogue: {
        combinations: [combination(9107, 9001, { connectors: [{ id: 7, name: 'Manual upload', icon: 'x', order: 1, provider: 'manual_upload' }] })],
      },
    });
    expect(() => collectCatalogue([uploadConnector, renamed])).toThrow(
      'The catalogue of plugin "fixture-renamed" is not valid: combination 9107 gives the connector "manual_upload" the id 7 and name "Manual upload", but it is declared as 4 "Manual upload"',
    );
    const clash = defineServerPlugin({ id: 'fixture-clash-connector', contributes: [contribute(Connectors, { ...manualUpload, id: 'other_upload' })] });
    expect(() => collectCatalogue([uploadConnector, clash])).toThrow(
      'The catalogue of plugin "fixture-clash-connector" is not valid: the connector "other_upload" takes catalogue id 4, which the connector "manual_upload" already has',
    );
  });

  it("takes each trigger's id, name and icon from its declaration, and fails on a trigger nobody declares", () => {
    const drive = defineServerPlugin({ id: 'fixture-drive-trigger', contributes: [contribute(CatalogueTriggers, googleDriveNewFile)] });
    const named = defineServerPlugin({
      id: 'fixture-triggers',
      catalogue: { combinations: [combination(9108, 9001, { triggers: [trigger('file_uploaded'), trigger('google_drive_new_file')] })] },
    });
    expect(collectCatalogue([uploadConnector, drive, named]).combinations[0].entry.triggers).toEqual([
      { id: 3, name: 'File uploaded in Flowmatic', icon: 'manual_upload' },
      { id: 1, name: 'New file in a Google Drive folder', icon: 'google_drive' },
    ]);
    // the core knows its built-in triggers only: without the connectors plugin, Google Drive's is nobody's
    expect(() => collectCatalogue([uploadConnector, named])).toThrow(
      'The catalogue of plugin "fixture-triggers" is not valid: combination 9108 names the trigger "google_drive_new_file", which no running plugin declares',
    );
    const renamed = defineServerPlugin({
      id: 'fixture-renamed-trigger',
      catalogue: { combinations: [combination(9109, 9001, { triggers: [{ kind: 'file_uploaded', id: 3, name: 'File uploaded', icon: 'manual_upload' }] })] },
    });
    expect(() => collectCatalogue([uploadConnector, renamed])).toThrow(
      'The catalogue of plugin "fixture-renamed-trigger" is not valid: combination 9109 gives the trigger "file_uploaded" the id 3 and name "File uploaded", but it is declared as 3 "File uploaded in Flowmatic"',
    );
    const clash = defineServerPlugin({
      id: 'fixture-clash-trigger',
      contributes: [contribute(CatalogueTriggers, { ...googleDriveNewFile, id: 'other_new_file', catalogueId: 3 })],
    });
    expect(() => collectCatalogue([clash])).toThrow(
      'The catalogue of plugin "fixture-clash-trigger" is not valid: the trigger "other_new_file" takes catalogue id 3, which the trigger "file_uploaded" already has',
    );
  });

  it('the real plugins claim distinct ids and validate', async () => {
    const plugins = await discoverServerPlugins(PLUGINS_DIR);
    const collected = collectCatalogue(plugins);
    expect(collected.solutions.map((s) => s.entry.id)).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    expect(collected.workflows.map((w) => w.entry.id)).toEqual(expect.arrayContaining([10002, 10004, 10006, 10011]));
  });
});
