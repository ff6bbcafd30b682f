/** Emotion analysis of text (workflow 10002): a model trained on GoEmotions with a lexicon, or a chat model when configured. */
export { EMOTIONS, FELT_EMOTIONS, isEmotion, type Emotion, type EmotionResult, type EmotionScores, type FeltEmotion } from './emotions';
export { EmptyTextError, TextTooLongError } from './errors';
export { splitSentences } from './sentence-splitter';
export { tokenize, type Token } from './tokenizer';
export { classifyEmotion, scoreSentence, type EmotionClassification, type EmotionHit } from './lexicon-classifier';
export { builtInEmotionModel, classifySentence, EmotionModel, loadEmotionModel, type EmotionModelHeader } from './emotion-model';
export { featurise, fnv1a, namedFeatures, type FeatureConfig, type SparseVector } from './features';
export { builtInLexicon, lemmaCandidates, Lexicon, parseLexicon, type EmotionVector, type LexiconEntry } from './lexicon';
export {
  analyseText,
  LexiconEmotionAnalyser,
  LlmEmotionAnalyser,
  MAX_TEXT_CHARS,
  parseLabels,
  sentencesOf,
  type EmotionAnalyser,
  type LlmAnalyserLogger,
} from './emotion-analyser';
