/** Text generation: templates by default, an OpenAI-compatible chat model when configured. */
export type { GeneratedText, TextGenerator, TextTask } from './text-generator';
export type { GeneratorLogger } from './logger';
export { TextGeneratorConfigError } from './errors';
export { TemplateTextGenerator } from './template-text-generator';
export { OpenAiCompatibleTextGenerator, type OpenAiCompatibleOptions } from './openai-compatible-text-generator';
export { createTextGenerator, type TextGeneratorConfig } from './create-text-generator';
export { joinSentences, listPhrase, pick, plural, seededIndex } from './prose';
