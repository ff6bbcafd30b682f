/**
 * One text-generation interface for every feature that writes prose (reconciliation e-mails and
 * memos, financial-analysis findings, press releases, pitches, emotion analysis when an LLM is
 * configured).
 *
 * Every task carries both forms of itself: `template` (a deterministic rendering, used by the
 * default template engine and as the fallback when an LLM call fails) and `system` + `prompt`
 * (what an OpenAI-compatible chat model is asked). Callers never know which one answered unless
 * they look at `source`.
 */
export interface TextTask {
  /** A short name for logs and metrics, e.g. 'reconciliation.vendor-email'. */
  name: string;
  /** System message for a chat model. */
  system: string;
  /** User message for a chat model: everything the model needs, facts included. */
  prompt: string;
  /** The deterministic text, produced without a model. */
  template: () => string;
  /** Upper bound on the reply's length, in tokens (models) — templates ignore it. */
  maxTokens?: number;
  /** Ask a model for a JSON object reply (response_format json_object). */
  json?: boolean;
}

export interface GeneratedText {
  text: string;
  source: 'template' | 'llm';
}

export interface TextGenerator {
  generate(task: TextTask): Promise<GeneratedText>;
}
