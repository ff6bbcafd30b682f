/** Ekman's six basic emotions plus neutral: the labels every emotion analyser returns. */
export const EMOTIONS = ['anger', 'disgust', 'fear', 'joy', 'sadness', 'surprise', 'neutral'] as const;
export type Emotion = (typeof EMOTIONS)[number];
/** The six that carry feeling (everything but neutral). */
export type FeltEmotion = Exclude<Emotion, 'neutral'>;
export const FELT_EMOTIONS: readonly FeltEmotion[] = ['anger', 'disgust', 'fear', 'joy', 'sadness', 'surprise'];

export type EmotionScores = Record<Emotion, number>;

/** True for one of the seven labels; for validating model replies and requests. */
export function isEmotion(value: unknown): value is Emotion {
  return typeof value === 'string' && (EMOTIONS as readonly string[]).includes(value);
}

/** One analysed sentence: the reply shape of `api/text_processing_json/`. */
export interface EmotionResult {
  emotion: Emotion;
  text: string;
}
