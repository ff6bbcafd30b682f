import { defineServerPlugin, EmotionAnalysis, provide, type EmotionAnalysisService } from '../../src/server';
import { T } from '../../src/server';
import { HttpError } from '../../src/server';
import { EmptyTextError, LexiconEmotionAnalyser, LlmEmotionAnalyser, TextTooLongError, type EmotionAnalyser } from '../../src/server';
import type { TextGenerator } from '../../src/server';
import textProcessingSchema from '../../schemas/emotion-analysis/text-processing.schema.json';
import { emotionSteps } from './automation-actions';
import { catalogue } from './catalogue';

/**
 * The analyser for this server: a chat model (through the shared text generator, with the
 * lexicon as its fallback) when LLM_BASE_URL is set, otherwise the built-in lexicon classifier.
 */
export function chooseEmotionAnalyser(
  llmBaseUrl: string | undefined,
  text: TextGenerator,
  log?: { warn(obj: Record<string, unknown>, msg?: string): void },
): EmotionAnalyser {
  return llmBaseUrl ? new LlmEmotionAnalyser(text, log) : new LexiconEmotionAnalyser();
}

/**
 * The analyser as the EmotionAnalysis service: its labels, and the page's reply (`{ data }`;
 * empty or too long text is the analyser's 400 as an HttpError).
 */
export function emotionAnalysisService(analyser: EmotionAnalyser): EmotionAnalysisService {
  return {
    analyse: (text) => analyser.analyse(text),
    async textProcessing(text) {
      try {
        return { data: await analyser.analyse(text) };
      } catch (error) {
        if (error instanceof EmptyTextError || error instanceof TextTooLongError) throw new HttpError(error.statusCode, error.message);
        throw error;
      }
    },
  };
}

/**
 * Emotion analysis: workflow 10002 (combinations 6, 7) and the coming-soon 10003 (combination 15).
 * The analyser is provided as EmotionAnalysis (src/server): the page's route, the automation
 * engine's flowmatic_ai:analyse_emotions step and any other caller use the same one.
 */
export default defineServerPlugin({
  id: 'emotion-analysis',
  catalogue,
  provides: [
    provide(EmotionAnalysis, (get) => emotionAnalysisService(chooseEmotionAnalyser(get(T.ServerConfig).llmBaseUrl, get(T.TextGenerator), get(T.Logger)))),
  ],
  needs: { analyser: EmotionAnalysis },
  steps: ({ analyser }) => emotionSteps(analyser),
  routes(app, { analyser }) {
    app.post<{ Body: { text: string } }>(
      '/api/api/text_processing_json/',
      { auth: 'user', schema: { body: textProcessingSchema }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
      async (request) => analyser.textProcessing(request.body.text),
    );
  },
});
