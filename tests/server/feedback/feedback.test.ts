import { createUser, startTestServer, type TestServer } from '../../support/server';

describe('POST /api/platform/feedback (the Beta feedback tab)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('stores the message with the user and the page', async () => {
    const u = await createUser(server);
    const res = await server.call('POST', '/api/platform/feedback', { token: u.access, body: { message: '  Love the invoice cards  ', page: '/home' } });
    expect(res).toMatchObject({ status: 201, body: { status: 'success', message: 'Thank you for your feedback!' } });
    const rows = await server.db.selectFrom('feedback').selectAll().where('user_id', '=', u.id).execute();
    expect(rows).toEqual([expect.objectContaining({ message: 'Love the invoice cards', page: '/home' })]);
  });

  it('needs a login', async () => {
    expect((await server.call('POST', '/api/platform/feedback', { body: { message: 'hi' } })).status).toBe(401);
  });

  it.each([[{ message: '' }], [{ message: '   ' }], [{ message: 'x'.repeat(2001) }], [{}], [{ message: 'ok', admin: true }]])(
    'refuses %p with a clear message',
    async (body) => {
      const u = await createUser(server);
      const res = await server.call('POST', '/api/platform/feedback', { token: u.access, body });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
      expect(typeof res.body.message).toBe('string');
    },
  );
});
