import emotionAnalysis from '../../../plugins/emotion-analysis/server';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import * as T from '../../../src/server/tokens';
import type { TextGenerator, TextTask } from '../../../src/server/ai/text-generation';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const URL = '/api/api/text_processing_json/';

describe('POST /api/api/text_processing_json/ (workflow 10002)', () => {
  describe('with the built-in lexicon', () => {
    let server: TestServer;
    let user: TestUser;
    beforeAll(async () => {
      server = await startTestServer({ plugins: [connectorDeclarations, emotionAnalysis] });
      user = await createUser(server);
    });
    afterAll(() => server.close());

    it('labels each sentence with one emotion, in order', async () => {
      const text = 'I love the new dashboard, it is wonderful! The invoice arrived on Tuesday. I am furious that my order was cancelled again.';
      const res = await server.call('POST', URL, { token: user.access, body: { text } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [
          { emotion: 'joy', text: 'I love the new dashboard, it is wonderful!' },
          { emotion: 'neutral', text: 'The invoice arrived on Tuesday.' },
          { emotion: 'anger', text: 'I am furious that my order was cancelled again.' },
        ],
      });
    });

    it.each([
      ['an empty text', { text: '' }, 400, 'Please enter the text to analyse (up to 20,000 characters).'],
      ['no text', {}, 400, 'Please enter the text to analyse (up to 20,000 characters).'],
      ['blank text', { text: '   \n  ' }, 400, 'Please enter some text to analyse; the text is empty.'],
      ['20,001 characters', { text: 'x'.repeat(20_001) }, 400, 'Please enter the text to analyse (up to 20,000 characters).'],
      ['a number', { text: 42 }, 400, 'Please enter the text to analyse (up to 20,000 characters).'],
    ])('refuses %s with a clear message', async (_label, body, status, message) => {
      const res = await server.call('POST', URL, { token: user.access, body });
      expect(res).toMatchObject({ status, body: { status: 'error', message } });
    });

    it('needs a login', async () => {
      expect((await server.call('POST', URL, { body: { text: 'Hello.' } })).status).toBe(401);
    });
  });

  describe('with a language model configured (LLM_BASE_URL)', () => {
    let server: TestServer;
    let user: TestUser;
    const tasks: TextTask[] = [];
    let reply = '';
    const model: TextGenerator = {
      async generate(task) {
        tasks.push(task);
        return { text: reply, source: 'llm' };
      },
    };
    beforeAll(async () => {
      server = await startTestServer({
        plugins: [connectorDeclarations, emotionAnalysis],
        env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1' },
        overrides: (c) => c.rebind(T.TextGenerator).toConstantValue(model),
      });
      user = await createUser(server);
    });
    afterAll(() => server.close());

    it("uses the model's labels, one per sentence", async () => {
      reply = '{"emotions": ["surprise", "sadness"]}';
      const res = await server.call('POST', URL, { token: user.access, body: { text: 'Wow, it shipped already. Sadly the box was empty.' } });
      expect(res.body).toEqual({
        data: [
          { emotion: 'surprise', text: 'Wow, it shipped already.' },
          { emotion: 'sadness', text: 'Sadly the box was empty.' },
        ],
      });
      expect(tasks.at(-1)).toMatchObject({ name: 'emotion.classify', json: true, prompt: '1. Wow, it shipped already.\n2. Sadly the box was empty.' });
    });

    it('falls back to the built-in classifier when the model answers nonsense', async () => {
      reply = 'I think these are happy sentences';
      const res = await server.call('POST', URL, { token: user.access, body: { text: 'I love it. This is terrible and I hate it.' } });
      expect(res.body.data.map((r: { emotion: string }) => r.emotion)).toEqual(['joy', 'anger']);
    });
  });
});
