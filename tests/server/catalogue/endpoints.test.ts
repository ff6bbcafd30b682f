import { createUser, type TestServer, type TestUser } from '../../support/server';
import { replySchemas, startCatalogueServer } from './support';

jest.setTimeout(30_000);

const check = replySchemas();

describe('catalogue endpoints over the real catalogue', () => {
  let server: TestServer, alice: TestUser, bob: TestUser;
  beforeAll(async () => ({ server, alice, bob } = await startCatalogueServer()));
  afterAll(() => server.close());

  const get = (url: string, user: TestUser = alice) => server.call('GET', url, { token: user.access });
  const post = (url: string, body: unknown, user: TestUser = alice) => server.call('POST', url, { token: user.access, body });

  describe('login', () => {
    it.each([
      ['GET', '/api/platform/combinations'],
      ['GET', '/api/platform/combination/1/'],
      ['GET', '/api/platform/solutions'],
      ['GET', '/api/platform/solution/1/'],
      ['GET', '/api/platform/workflows/10004/'],
      ['POST', '/api/platform/searchWorkflowTemplate'],
      ['GET', '/api/platform/votes'],
      ['POST', '/api/platform/votes'],
      ['POST', '/api/platform/marketing'],
      ['GET', '/api/platform/proxy?url=api/managed_users/100001/connections'],
      ['GET', '/api/platform/userByWorkatoRecipe/100001/'],
    ])('%s %s needs a logged-in user', async (method, url) => {
      const res = await server.call(method, url, { body: method === 'POST' ? {} : undefined });
      expect(res.status).toBe(401);
      expect(res.body.status_code).toBe(401);
    });

    it('refuses an unverified user', async () => {
      const u = await createUser(server, { verified: false });
      expect((await get('/api/platform/solutions', u)).status).toBe(401);
    });
  });

  describe('GET /api/platform/solutions', () => {
    it('lists the solutions with their author and status', async () => {
      const res = await get('/api/platform/solutions');
      expect(res.status).toBe(200);
      expect(res.body.map((s: any) => [s.id, s.name])).toEqual(
        expect.arrayContaining([
          [1, 'Finance'],
          [2, 'Operations'],
          [3, 'Customer Experience'],
          [4, 'Human Resources'],
        ]),
      );
      for (const s of res.body) expect(check('solution', s)).toEqual([]);
      const finance = res.body.find((s: any) => s.id === 1);
      expect(finance).toMatchObject({ status: 'active', created_by: { user: { first_name: expect.any(String) } } });
      expect(finance.descrption.length).toBeGreaterThan(20);
      expect(res.body.find((s: any) => s.id === 4).status).toBe('coming_soon');
    });
  });

  describe('GET /api/platform/solution/{id}/', () => {
    it('returns a solution with its workflows', async () => {
      const res = await get('/api/platform/solution/1/');
      expect(res.status).toBe(200);
      expect(check('solution', res.body)).toEqual([]);
      expect(res.body.name).toBe('Finance');
      const names = res.body.workflows.map((w: any) => w.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'Invoice Data Extraction',
          'Invoice Reconciliation',
          'Financial Analysis',
          'Expense Receipt Data Extraction',
          'Expense Categorisation',
        ]),
      );
      expect(Object.keys(res.body.workflows[0]).sort()).toEqual(['descrption', 'icon', 'id', 'name']);
      expect(res.body.workflows.find((w: any) => w.name === 'Expense Categorisation').icon).toBe('coming_soon');
    });

    it('places each workflow page id under its solution', async () => {
      const ops = (await get('/api/platform/solution/2/')).body.workflows.map((w: any) => w.id);
      expect(ops).toEqual(expect.arrayContaining([10006, 10011]));
      const cx = (await get('/api/platform/solution/3/')).body.workflows;
      expect(cx.map((w: any) => w.id)).toEqual(expect.arrayContaining([10002]));
      expect(cx.find((w: any) => w.name === 'Emotion Analysis from Audio/Video').icon).toBe('coming_soon');
    });

    it('serves a coming-soon solution, and the path without its trailing slash', async () => {
      const res = await get('/api/platform/solution/4');
      expect(res.status).toBe(200);
      expect(res.body.workflows).toEqual([]);
    });
  });

  describe('GET /api/platform/combinations', () => {
    it('lists every combination in the domain shape, connectors sorted by order', async () => {
      const res = await get('/api/platform/combinations');
      expect(res.status).toBe(200);
      for (const c of res.body) {
        expect(check('combination', c)).toEqual([]);
        const orders = c.connectors.map((k: any) => k.order);
        expect(orders).toEqual([...orders].sort((a: number, b: number) => a - b));
      }
      const ids = res.body.map((c: any) => c.id);
      expect(ids).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]));
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('carries the catalogue the screens rely on', async () => {
      const all: any[] = (await get('/api/platform/combinations')).body;
      const byId = new Map(all.map((c) => [c.id, c]));
      const providers = (id: number) => byId.get(id).connectors.map((k: any) => k.provider);
      expect(providers(1)).toEqual(['google_drive', 'flowmatic_ai', 'google_sheets']);
      expect(byId.get(1).workflow_id).toBe(10004);
      expect(providers(8)).toEqual(['manual_email', 'flowmatic_ai', 'google_sheets']);
      expect(providers(9)).toContain('xero');
      expect(byId.get(2).name).toMatch(/basic/i);
      expect(providers(10)).toEqual(['manual_upload', 'flowmatic_ai', 'manual_email']);
      expect(byId.get(10).workflow_id).toBe(10012);
      expect(byId.get(11).workflow_id).toBe(10013);
      expect(byId.get(4).workflow_id).toBe(10006);
      expect(byId.get(5).workflow_id).toBe(10011);
      expect([byId.get(6).workflow_id, byId.get(7).workflow_id]).toEqual([10002, 10002]);
      const ai = byId.get(1).connectors.find((k: any) => k.provider === 'flowmatic_ai');
      expect(ai.name).toBe('Flowmatic AI');
      expect(all.filter((c) => c.recommended && c.status === 'active').length).toBeGreaterThanOrEqual(3);
      expect(all.filter((c) => c.status === 'coming_soon').map((c) => c.id)).toEqual(expect.arrayContaining([12, 13, 14, 15]));
      for (const c of all) expect(c).toMatchObject({ my_vote: false, votes: 0, recipe_id: null, running: false });
    });

    it("fills recipe_id and running from the caller's own recipe only", async () => {
      const rec = await server.db
        .insertInto('user_recipes')
        .values({
          managed_user_id: alice.workatoId,
          combination_id: 8,
          name: 'Invoice Extraction from E-mail',
          status: 'complete',
          running: true,
          job_succeeded_count: 3,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const mine = (await get('/api/platform/combinations')).body.find((c: any) => c.id === 8);
      expect(mine).toMatchObject({ recipe_id: rec.id, running: true });
      const theirs = (await get('/api/platform/combinations', bob)).body.find((c: any) => c.id === 8);
      expect(theirs).toMatchObject({ recipe_id: null, running: false });
      const one = await get('/api/platform/combination/8/');
      expect(one.body).toMatchObject({ id: 8, workflow_id: 10004, recipe_id: rec.id, running: true });
    });
  });

  describe('GET /api/platform/combination/{id}/', () => {
    it('returns one combination with its workflow id', async () => {
      const res = await get('/api/platform/combination/1/');
      expect(res.status).toBe(200);
      expect(check('combination', res.body)).toEqual([]);
      expect(res.body).toMatchObject({ id: 1, workflow_id: 10004, status: 'active', enabled: true });
      expect(res.body.triggers[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), icon: 'google_drive' });
    });

    it.each(['abc', '0', '-1', '1.5', '1e3', '01', '99999999999', '%20'])('answers 400 for the id "%s"', async (id) => {
      const res = await get(`/api/platform/combination/${id}/`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'The combination id must be a number.' });
    });

    it('answers 404 for an unknown id', async () => {
      const res = await get('/api/platform/combination/9999/');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: 'Combination not found.' });
    });
  });

  describe('400 and 404 on the other id paths', () => {
    it.each([
      ['/api/platform/solution/x/', 'The solution id must be a number.'],
      ['/api/platform/workflows/ten/', 'The workflow id must be a number.'],
      ['/api/platform/userByWorkatoRecipe/me/', 'The workato id must be a number.'],
    ])('%s -> 400', async (url, message) => {
      const res = await get(url);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message });
    });

    it.each([
      ['/api/platform/solution/999/', 'Solution not found.'],
      ['/api/platform/workflows/424242/', 'Workflow not found.'],
    ])('%s -> 404', async (url, message) => {
      const res = await get(url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message });
    });
  });

  describe('GET /api/platform/workflows/{id}/', () => {
    it('returns the workflow with its combinations and the union of their triggers and connectors', async () => {
      const res = await get('/api/platform/workflows/10004/');
      expect(res.status).toBe(200);
      expect(check('workflow', res.body)).toEqual([]);
      expect(res.body).toMatchObject({ id: 10004, name: 'Invoice Data Extraction', icon: 'invoice', solution_id: 1 });
      expect(res.body.combinations.map((c: any) => c.id).sort((a: number, b: number) => a - b)).toEqual([1, 2, 8, 9]);
      const providers = res.body.connectors.map((k: any) => k.provider).sort();
      expect(providers).toEqual(['flowmatic_ai', 'google_drive', 'google_sheets', 'manual_email', 'manual_upload', 'xero']);
      expect(new Set(res.body.connectors.map((k: any) => k.id)).size).toBe(res.body.connectors.length);
      expect(res.body.triggers.map((t: any) => t.icon).sort()).toEqual(['google_drive', 'manual_email', 'manual_upload']);
    });

    it('serves every workflow page id', async () => {
      for (const [id, name] of [
        [10002, 'Emotion Analysis from Text Files'],
        [10006, 'Document Data Extraction'],
        [10011, 'Intelligent Search'],
      ] as const) {
        const res = await get(`/api/platform/workflows/${id}/`);
        expect(res.status).toBe(200);
        expect(res.body.name).toBe(name);
        expect(res.body.combinations.length).toBeGreaterThan(0);
      }
    });
  });

  describe('POST /api/platform/searchWorkflowTemplate', () => {
    const search = (body: unknown) => post('/api/platform/searchWorkflowTemplate', body);

    it('finds workflows of the solution by name, case-insensitively', async () => {
      const res = await search({ SolutionId: 1, Query: 'INVOICE' });
      expect(res.status).toBe(200);
      for (const w of res.body) expect(check('workflow', w)).toEqual([]);
      expect(res.body.map((w: any) => w.name)).toEqual(expect.arrayContaining(['Invoice Data Extraction', 'Invoice Reconciliation']));
      expect(res.body.map((w: any) => w.name)).not.toContain('Intelligent Search');
    });

    it('matches the description and every word of the query, and takes the id as a string', async () => {
      const res = await search({ SolutionId: '1', Query: 'purchase orders' });
      expect(res.body.map((w: any) => w.name)).toEqual(['Invoice Reconciliation']);
      const words = await search({ SolutionId: 1, Query: 'invoice extraction' });
      expect(words.body.map((w: any) => w.name)).toEqual(['Invoice Data Extraction']);
    });

    it('only searches the given solution', async () => {
      const res = await search({ SolutionId: 2, Query: 'invoice' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect((await search({ SolutionId: 2, Query: 'search' })).body.map((w: any) => w.id)).toEqual([10011]);
    });

    it('answers an empty list when nothing matches', async () => {
      const res = await search({ SolutionId: 3, Query: 'zebra crossing' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('treats % and _ and backslashes literally', async () => {
      for (const q of ['%', '_', '%%%', '__', '\\', '%invoice', 'in_oice', "'; drop table workflows; --"]) {
        const res = await search({ SolutionId: 1, Query: q });
        expect(res.status).toBe(200);
        expect(res.body).toEqual([]);
      }
      expect((await search({ SolutionId: 1, Query: 'x' })).status).toBe(200);
    });

    it('lists all the workflows of the solution for an empty query', async () => {
      const res = await search({ SolutionId: 3, Query: '  ' });
      expect(res.body.map((w: any) => w.id).sort()).toEqual([10002, 10003]);
    });

    it('validates the body', async () => {
      expect((await search({ SolutionId: 'one', Query: 'x' })).body).toEqual({ status: 'error', message: 'SolutionId must be a number.' });
      expect((await search({ SolutionId: 0, Query: 'x' })).status).toBe(400);
      expect((await search({ SolutionId: true, Query: 'x' })).status).toBe(400);
      expect((await search({ SolutionId: 1 })).status).toBe(400);
      expect((await search({ SolutionId: 1, Query: 'x'.repeat(201) })).status).toBe(400);
      expect((await search({ SolutionId: 1, Query: 5 })).status).toBe(400);
      expect((await search({ SolutionId: 999, Query: 'invoice' })).status).toBe(404);
    });
  });

  describe('POST /api/platform/marketing', () => {
    it('stores the event', async () => {
      const res = await post('/api/platform/marketing', { topic: 'home-news-great' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success' });
      const rows = await server.db.selectFrom('marketing_events').selectAll().where('user_id', '=', alice.id).execute();
      expect(rows.map((r) => r.topic)).toEqual(['home-news-great']);
    });

    it.each([[{}], [{ topic: '' }], [{ topic: '   ' }], [{ topic: 'x'.repeat(101) }], [{ topic: 42 }]])('refuses %j', async (body) => {
      const res = await post('/api/platform/marketing', body, bob);
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
      expect(res.body.message).toMatch(/topic/);
    });
  });

  describe('the provider proxy (read part)', () => {
    const proxy = (target: string, user: TestUser = alice) => get(`/api/platform/proxy?url=${target}`, user);

    beforeAll(async () => {
      await server.db
        .insertInto('connections')
        .values([
          { managed_user_id: alice.workatoId, provider: 'google_drive', name: 'My Google Drive', authorization_status: 'success' },
          { managed_user_id: alice.workatoId, provider: 'xero', name: 'Xero', authorization_status: null },
          { managed_user_id: bob.workatoId, provider: 'google_sheets', name: "Bob's sheets", authorization_status: 'success' },
        ])
        .execute();
    });

    it("answers the caller's own connections", async () => {
      const res = await proxy(`api/managed_users/${alice.workatoId}/connections`);
      expect(res.status).toBe(200);
      // issue 11: the list holds every connector the user can connect, 'success' or null
      expect(res.body.result.map((c: any) => [c.provider, c.authorization_status])).toEqual([
        ['google_drive', 'success'],
        ['xero', null],
        ['google_sheets', null],
      ]);
      for (const c of res.body.result) expect(check('provider-connection', c)).toEqual([]);
      const encoded = await proxy(encodeURIComponent(`api/managed_users/${alice.workatoId}/connections`));
      expect(encoded.body.result).toHaveLength(3);
    });

    it("answers the caller's own recipe", async () => {
      const rec = await server.db
        .insertInto('user_recipes')
        .values({
          managed_user_id: alice.workatoId,
          combination_id: 0,
          name: 'Starter',
          status: 'started',
          running: true,
          job_failed_count: 1,
          job_succeeded_count: 4,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const res = await proxy(`api/managed_users/${alice.workatoId}/recipes/${rec.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: rec.id, running: true, job_failed_count: 1, job_succeeded_count: 4 });
      expect(check('provider-recipe', res.body)).toEqual([]);
      // someone else's recipe id through one's own workspace is unknown
      const other = await server.db
        .insertInto('user_recipes')
        .values({ managed_user_id: bob.workatoId, combination_id: 0, name: 'Starter', status: 'started' })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await proxy(`api/managed_users/${alice.workatoId}/recipes/${other.id}`)).status).toBe(404);
      expect((await proxy(`api/managed_users/${alice.workatoId}/recipes/987654`)).status).toBe(404);
    });

    it("refuses another user's workato id", async () => {
      for (const target of [`api/managed_users/${bob.workatoId}/connections`, `api/managed_users/${bob.workatoId}/recipes/1`]) {
        const res = await proxy(target);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ status: 'error', message: 'You can only reach your own automation workspace.' });
      }
    });

    it.each([
      'api/users',
      'api/managed_users',
      'api/managed_users/ID/connections',
      'api/managed_users/SELF/connections/',
      'api/managed_users/SELF/connections/../../users',
      'api/managed_users/SELF/../OTHER/connections',
      '../api/managed_users/SELF/connections',
      '/api/managed_users/SELF/connections',
      'api//managed_users/SELF/connections',
      'api/managed_users/0SELF/connections',
      'api/managed_users/SELF/recipes',
      'api/managed_users/SELF/recipes/abc',
      'api/managed_users/SELF/recipes/1/start',
      'api/managed_users/SELF/jobs',
      'http://evil.example/api/managed_users/SELF/connections',
      '//evil.example/api/managed_users/SELF/connections',
      'https:%2F%2Fevil.example',
      'api/managed_users/SELF/connections%3Fx%3D1',
      'api/managed_users/SELF/connections%23frag',
      'api%252Fmanaged_users%252FSELF%252Fconnections',
      'api/managed_users/SELF/connections%0a',
      'api/managed_users/SELF%2F..%2FOTHER/connections',
      'api/managed_users/SELF/connections%00',
      'API/managed_users/SELF/connections',
      '',
    ])('refuses the path %s without fetching anything', async (raw) => {
      const target = raw.replace(/SELF/g, String(alice.workatoId)).replace(/OTHER/g, String(bob.workatoId));
      const res = await proxy(target);
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
      expect(res.body.message).toMatch(/only answers/);
    });

    it('refuses a missing or repeated url parameter', async () => {
      expect((await get('/api/platform/proxy')).status).toBe(400);
      const own = `api/managed_users/${alice.workatoId}/connections`;
      expect((await get(`/api/platform/proxy?url=${own}&url=${own}`)).status).toBe(400);
    });

    it('refuses a user without an automation workspace', async () => {
      const carol = await createUser(server);
      await server.db.deleteFrom('managed_users').where('id', '=', carol.workatoId).execute();
      const res = await proxy(`api/managed_users/${carol.workatoId}/connections`, carol);
      expect(res.status).toBe(403);
    });
  });

  describe('GET /api/platform/userByWorkatoRecipe/{workatoId}/', () => {
    it("lists the caller's own recipe records", async () => {
      const dave = await createUser(server);
      await server.db
        .insertInto('user_recipes')
        .values([
          { managed_user_id: dave.workatoId, combination_id: 0, name: 'Starter recipe', status: 'started' },
          {
            managed_user_id: dave.workatoId,
            combination_id: 2,
            name: 'Invoice Data Extraction Basic',
            status: 'complete',
            job_succeeded_count: 2,
            folder_id: 'f1',
            sheet_id: 's1',
          },
        ])
        .execute();
      const res = await get(`/api/platform/userByWorkatoRecipe/${dave.workatoId}/`, dave);
      expect(res.status).toBe(200);
      expect(res.body.workato_recipes).toHaveLength(2);
      for (const r of res.body.workato_recipes) expect(check('user-recipe-record', r)).toEqual([]);
      expect(res.body.workato_recipes[1]).toMatchObject({
        combination: 2,
        name: 'Invoice Data Extraction Basic',
        status: 'complete',
        job_succeeded_count: 2,
        job_failed_count: 0,
        folder_id: 'f1',
        sheet_id: 's1',
        workato_webhook: null,
      });
      expect(res.body.workato_recipes[0].combination).toBe(0);
      const noSlash = await get(`/api/platform/userByWorkatoRecipe/${dave.workatoId}`, dave);
      expect(noSlash.body).toEqual(res.body);
    });

    it("refuses another user's workato id", async () => {
      const res = await get(`/api/platform/userByWorkatoRecipe/${bob.workatoId}/`);
      expect(res.status).toBe(403);
      expect(res.body.status).toBe('error');
    });
  });
});
