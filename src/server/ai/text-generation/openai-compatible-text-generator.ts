import { TextGeneratorConfigError } from './errors';
import type { GeneratorLogger } from './logger';
import type { GeneratedText, TextGenerator, TextTask } from './text-generator';

export interface OpenAiCompatibleOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 — '/chat/completions' is appended. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per-call time limit; the template answers when it runs out. Default 20 s. */
  timeoutMs?: number;
  /** Default max_tokens when the task names none. */
  defaultMaxTokens?: number;
  /** For tests or a proxy; defaults to the global fetch. */
  fetch?: typeof fetch;
  logger: GeneratorLogger;
}

/** Why a model call did not produce usable text. */
class ModelReplyError extends Error {}

/**
 * Asks an OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI's compatible route,
 * vLLM, Ollama, LM Studio...). A model failure — HTTP error, time-out, network error, empty or
 * malformed reply, invalid JSON in JSON mode — never reaches the caller: it is logged and the
 * task's template answers instead. Only a bad configuration throws, at construction.
 */
export class OpenAiCompatibleTextGenerator implements TextGenerator {
  private readonly endpoint: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    const { baseUrl, apiKey, model } = options;
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new TextGeneratorConfigError(`The LLM base URL "${baseUrl}" is not a valid URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TextGeneratorConfigError(`The LLM base URL must start with http:// or https://, not "${url.protocol}".`);
    }
    if (typeof apiKey !== 'string' || apiKey.trim() === '') throw new TextGeneratorConfigError('The LLM API key is empty.');
    if (typeof model !== 'string' || model.trim() === '') throw new TextGeneratorConfigError('The LLM model name is empty.');
    const timeoutMs = options.timeoutMs ?? 20_000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TextGeneratorConfigError('The LLM time-out must be a positive number of milliseconds.');
    this.endpoint = `${url.href.replace(/\/+$/, '')}/chat/completions`;
    this.timeoutMs = timeoutMs;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Asks the model; on any model failure returns the template with source 'template'. */
  async generate(task: TextTask): Promise<GeneratedText> {
    const started = Date.now();
    try {
      const text = await this.ask(task);
      this.options.logger.info?.({ task: task.name, ms: Date.now() - started }, 'LLM text generated');
      return { text, source: 'llm' };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.options.logger.warn({ task: task.name, ms: Date.now() - started, reason }, 'LLM call failed; using the template');
      return { text: task.template(), source: 'template' };
    }
  }

  private async ask(task: TextTask): Promise<string> {
    const body: Record<string, unknown> = {
      model: this.options.model,
      messages: [
        { role: 'system', content: task.system },
        { role: 'user', content: task.prompt },
      ],
      max_tokens: task.maxTokens ?? this.options.defaultMaxTokens ?? 800,
      temperature: 0.2,
    };
    if (task.json) body.response_format = { type: 'json_object' };

    const signal = AbortSignal.timeout(this.timeoutMs);
    let res: Response;
    try {
      res = await this.fetchImpl(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.apiKey}` },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new ModelReplyError(`no reply within ${this.timeoutMs} ms`);
      throw new ModelReplyError(`request failed: ${(error as Error).message}`);
    }
    let raw: string;
    try {
      raw = await res.text();
    } catch {
      throw new ModelReplyError(signal.aborted ? `no complete reply within ${this.timeoutMs} ms` : 'the reply could not be read');
    }
    if (!res.ok) throw new ModelReplyError(`HTTP ${res.status}: ${raw.slice(0, 200)}`);

    let parsed: { choices?: Array<{ message?: { content?: unknown } }> };
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ModelReplyError('the reply is not JSON');
    }
    const content = parsed?.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') throw new ModelReplyError('the reply has no message content');
    if (task.json) {
      try {
        JSON.parse(content);
      } catch {
        throw new ModelReplyError('JSON was asked for but the message content is not JSON');
      }
    }
    return content.trim();
  }
}
