import type { TextGenerator } from '../text-generation/text-generator';
import { EMOTIONS, isEmotion, type EmotionResult } from './emotions';
import { EmptyTextError, TextTooLongError } from './errors';
import { classifySentence } from './emotion-model';
import { splitSentences } from './sentence-splitter';

/** Longest text accepted in one request (characters). */
export const MAX_TEXT_CHARS = 20_000;

/** Emotion per sentence, for `api/text_processing_json/`. */
export interface EmotionAnalyser {
  analyse(text: string): Promise<EmotionResult[]>;
}

/** Splits text into sentences, refusing empty or oversized text with a clear error. */
export function sentencesOf(text: unknown, maxChars = MAX_TEXT_CHARS): string[] {
  if (typeof text !== 'string' || text.trim() === '') throw new EmptyTextError();
  if (text.length > maxChars) throw new TextTooLongError(maxChars);
  const sentences = splitSentences(text);
  if (sentences.length === 0) throw new EmptyTextError();
  return sentences;
}

/**
 * One `{ emotion, text }` per sentence of `text`, from the built-in classifier (the model trained
 * on GoEmotions with the lexicon as one of its inputs). Throws EmptyTextError for empty text.
 */
export function analyseText(text: string): EmotionResult[] {
  return sentencesOf(text).map((sentence) => ({ emotion: classifySentence(sentence).emotion, text: sentence }));
}

/**
 * The built-in analyser: the committed GoEmotions model with the lexicon and rules, on the CPU,
 * deterministic. (The name is kept from when the lexicon alone answered.)
 */
export class LexiconEmotionAnalyser implements EmotionAnalyser {
  async analyse(text: string): Promise<EmotionResult[]> {
    return analyseText(text);
  }
}

export interface LlmAnalyserLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
}

/**
 * Asks a chat model (through a TextGenerator) for one label per sentence, as JSON
 * `{"emotions": [...]}`. The sentences are split here, so the reply only has to name labels; a
 * reply of the wrong length or with an unknown label is refused and the built-in classifier
 * answers instead. When the generator itself falls back to its template, the template is the
 * built-in classifier's answer.
 */
export class LlmEmotionAnalyser implements EmotionAnalyser {
  constructor(
    private readonly generator: TextGenerator,
    private readonly logger?: LlmAnalyserLogger,
  ) {}

  async analyse(text: string): Promise<EmotionResult[]> {
    const sentences = sentencesOf(text);
    const lexicon = () => sentences.map((s) => ({ emotion: classifySentence(s).emotion, text: s }));
    const reply = await this.generator.generate({
      name: 'emotion.classify',
      system:
        'You label the emotion of each sentence of business text (e-mails, tickets, reviews, memos) with exactly one of: ' +
        `${EMOTIONS.join(', ')}. Use Ekman's basic emotions; use neutral for factual or merely polite sentences. ` +
        'When a sentence contrasts two clauses ("great, but the invoice is wrong"), the later clause decides. ' +
        'Reply with a JSON object {"emotions": [...]} holding one label per sentence, in order, nothing else.',
      prompt: sentences.map((s, i) => `${i + 1}. ${s}`).join('\n'),
      maxTokens: 16 + sentences.length * 8,
      json: true,
      template: () => JSON.stringify({ emotions: lexicon().map((r) => r.emotion) }),
    });
    const labels = parseLabels(reply.text, sentences.length);
    if (!labels) {
      this.logger?.warn({ sentences: sentences.length, reply: reply.text.slice(0, 200) }, 'Emotion model reply was not usable; using the lexicon');
      return lexicon();
    }
    return sentences.map((s, i) => ({ emotion: labels[i], text: s }));
  }
}

/** The labels from a model reply, or null unless it is exactly `count` valid labels. */
export function parseLabels(reply: string, count: number): EmotionResult['emotion'][] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return null;
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { emotions?: unknown })?.emotions;
  if (!Array.isArray(list) || list.length !== count) return null;
  const labels = list.map((x) =>
    typeof x === 'string' ? x.trim().toLowerCase() : typeof x === 'object' && x ? String((x as { emotion?: unknown }).emotion ?? '').toLowerCase() : '',
  );
  return labels.every(isEmotion) ? (labels as EmotionResult['emotion'][]) : null;
}
