import { TextGeneratorConfigError } from './errors';
import type { GeneratorLogger } from './logger';
import { OpenAiCompatibleTextGenerator } from './openai-compatible-text-generator';
import { TemplateTextGenerator } from './template-text-generator';
import type { TextGenerator } from './text-generator';

export interface TextGeneratorConfig {
  llmBaseUrl?: string;
  llmApiKey?: string;
  llmModel?: string;
  llmTimeoutMs?: number;
}

/**
 * The generator the configuration asks for: a chat model when LLM_BASE_URL, LLM_API_KEY and
 * LLM_MODEL are all set, the templates when none is. Setting only some of them is a mistake
 * worth stopping for, so it throws rather than silently using templates.
 */
export function createTextGenerator(config: TextGeneratorConfig, logger: GeneratorLogger): TextGenerator {
  const set = {
    LLM_BASE_URL: nonEmpty(config.llmBaseUrl),
    LLM_API_KEY: nonEmpty(config.llmApiKey),
    LLM_MODEL: nonEmpty(config.llmModel),
  };
  const present = Object.entries(set)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
  if (present.length === 0) return new TemplateTextGenerator();
  if (present.length < 3) {
    const missing = Object.keys(set).filter((k) => !present.includes(k));
    throw new TextGeneratorConfigError(`The LLM is partly configured: ${present.join(', ')} set but ${missing.join(', ')} missing. Set all three or none.`);
  }
  return new OpenAiCompatibleTextGenerator({
    baseUrl: set.LLM_BASE_URL!,
    apiKey: set.LLM_API_KEY!,
    model: set.LLM_MODEL!,
    timeoutMs: config.llmTimeoutMs,
    logger,
  });
}

function nonEmpty(v: string | undefined): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
