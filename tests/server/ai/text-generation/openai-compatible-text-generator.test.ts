import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createTextGenerator,
  OpenAiCompatibleTextGenerator,
  TemplateTextGenerator,
  TextGeneratorConfigError,
  type GeneratorLogger,
  type TextTask,
} from '../../../../src/server/ai/text-generation';

interface Seen {
  url: string;
  auth?: string;
  body: any;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: any) => void;

/** A chat-completions server on 127.0.0.1 whose behaviour each test sets. */
let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[];
const openSockets = new Set<import('node:net').Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      seen.push({ url: req.url!, auth: req.headers.authorization, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (s) => {
    openSockets.add(s);
    s.on('close', () => openSockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  for (const s of openSockets) s.destroy();
  await new Promise((r) => server.close(r));
});

let logs: Array<{ level: string; obj: Record<string, unknown>; msg?: string }>;
const logger: GeneratorLogger = {
  warn: (obj, msg) => logs.push({ level: 'warn', obj, msg }),
  info: (obj, msg) => logs.push({ level: 'info', obj, msg }),
};
beforeEach(() => {
  seen = [];
  logs = [];
});

const reply = (content: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
};

const task = (extra: Partial<TextTask> = {}): TextTask => ({
  name: 'test.memo',
  system: 'You write short business memos.',
  prompt: 'Write one sentence about the March invoices.',
  template: () => 'The March invoices are attached.',
  ...extra,
});

const gen = (timeoutMs = 2000) => new OpenAiCompatibleTextGenerator({ baseUrl, apiKey: 'sk-test-123', model: 'tiny-model', timeoutMs, logger });

describe('OpenAiCompatibleTextGenerator', () => {
  it('posts system and user messages with bearer auth and returns the model text', async () => {
    handler = reply('  All March invoices have been reconciled.  ');
    const out = await gen().generate(task({ maxTokens: 120 }));
    expect(out).toEqual({ text: 'All March invoices have been reconciled.', source: 'llm' });
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe('/v1/chat/completions');
    expect(seen[0].auth).toBe('Bearer sk-test-123');
    expect(seen[0].body).toEqual({
      model: 'tiny-model',
      messages: [
        { role: 'system', content: 'You write short business memos.' },
        { role: 'user', content: 'Write one sentence about the March invoices.' },
      ],
      max_tokens: 120,
      temperature: 0.2,
    });
  });

  it('asks for a JSON object in JSON mode and accepts a JSON reply', async () => {
    handler = reply('{"data":[{"emotion":"joy","text":"Great!"}]}');
    const out = await gen().generate(task({ json: true }));
    expect(seen[0].body.response_format).toEqual({ type: 'json_object' });
    expect(out.source).toBe('llm');
    expect(JSON.parse(out.text)).toEqual({ data: [{ emotion: 'joy', text: 'Great!' }] });
  });

  it('falls back to the template when JSON mode gets prose', async () => {
    handler = reply('Sure! Here is your JSON: {oops');
    expect(await gen().generate(task({ json: true }))).toEqual({ text: 'The March invoices are attached.', source: 'template' });
    expect(logs.find((l) => l.level === 'warn')?.obj.reason).toMatch(/not JSON/);
  });

  it('falls back to the template on HTTP 500 and logs the status', async () => {
    handler = (_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"overloaded"}}');
    };
    expect(await gen().generate(task())).toEqual({ text: 'The March invoices are attached.', source: 'template' });
    expect(logs).toEqual([
      expect.objectContaining({ level: 'warn', obj: expect.objectContaining({ task: 'test.memo', reason: expect.stringContaining('HTTP 500') }) }),
    ]);
  });

  it('falls back to the template on a time-out', async () => {
    handler = () => undefined; // never answers
    const t = Date.now();
    expect(await gen(300).generate(task())).toEqual({ text: 'The March invoices are attached.', source: 'template' });
    expect(Date.now() - t).toBeLessThan(2000);
    expect(logs[0].obj.reason).toMatch(/no reply within 300 ms/);
  });

  it('falls back on a malformed reply, a reply without content and an empty content', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>gateway</html>');
    };
    expect((await gen().generate(task())).source).toBe('template');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices":[]}');
    };
    expect((await gen().generate(task())).source).toBe('template');
    handler = reply('   ');
    expect((await gen().generate(task())).source).toBe('template');
    handler = reply(null);
    expect((await gen().generate(task())).source).toBe('template');
    expect(logs.filter((l) => l.level === 'warn')).toHaveLength(4);
  });

  it('falls back when the server cannot be reached', async () => {
    const closed = new OpenAiCompatibleTextGenerator({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k', model: 'm', timeoutMs: 2000, logger });
    expect((await closed.generate(task())).source).toBe('template');
    expect(logs[0].obj.reason).toMatch(/request failed/);
  });

  it('uses an injected fetch', async () => {
    const fakeFetch = jest.fn(async () => new Response(JSON.stringify({ choices: [{ message: { content: 'from fake' } }] }), { status: 200 }));
    const g = new OpenAiCompatibleTextGenerator({
      baseUrl: 'https://llm.example/v1/',
      apiKey: 'k',
      model: 'm',
      logger,
      fetch: fakeFetch as unknown as typeof fetch,
    });
    expect(await g.generate(task())).toEqual({ text: 'from fake', source: 'llm' });
    expect((fakeFetch.mock.calls[0] as unknown[])[0]).toBe('https://llm.example/v1/chat/completions');
  });

  it('throws a clear error for a bad configuration', () => {
    expect(() => new OpenAiCompatibleTextGenerator({ baseUrl: 'not a url', apiKey: 'k', model: 'm', logger })).toThrow(/not a valid URL/);
    expect(() => new OpenAiCompatibleTextGenerator({ baseUrl: 'ftp://x', apiKey: 'k', model: 'm', logger })).toThrow(/http:\/\/ or https:\/\//);
    expect(() => new OpenAiCompatibleTextGenerator({ baseUrl, apiKey: ' ', model: 'm', logger })).toThrow(/API key is empty/);
    expect(() => new OpenAiCompatibleTextGenerator({ baseUrl, apiKey: 'k', model: '', logger })).toThrow(TextGeneratorConfigError);
    expect(() => new OpenAiCompatibleTextGenerator({ baseUrl, apiKey: 'k', model: 'm', timeoutMs: 0, logger })).toThrow(/time-out/);
  });
});

describe('TemplateTextGenerator and createTextGenerator', () => {
  it('the template generator renders the template', async () => {
    expect(await new TemplateTextGenerator().generate(task())).toEqual({ text: 'The March invoices are attached.', source: 'template' });
  });

  it('chooses templates with no LLM settings and the model with all three', async () => {
    expect(createTextGenerator({}, logger)).toBeInstanceOf(TemplateTextGenerator);
    expect(createTextGenerator({ llmBaseUrl: '', llmApiKey: ' ' }, logger)).toBeInstanceOf(TemplateTextGenerator);
    const g = createTextGenerator({ llmBaseUrl: baseUrl, llmApiKey: 'sk-test-123', llmModel: 'tiny-model' }, logger);
    expect(g).toBeInstanceOf(OpenAiCompatibleTextGenerator);
    handler = reply('From the model.');
    expect(await g.generate(task())).toEqual({ text: 'From the model.', source: 'llm' });
  });

  it('refuses a partial configuration, naming what is missing', () => {
    expect(() => createTextGenerator({ llmBaseUrl: baseUrl }, logger)).toThrow(
      'The LLM is partly configured: LLM_BASE_URL set but LLM_API_KEY, LLM_MODEL missing. Set all three or none.',
    );
  });
});
