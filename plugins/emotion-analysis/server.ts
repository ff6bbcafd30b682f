import { AutomationActions, contribute, defineServerPlugin } from '../../src/server';
import { T } from '../../src/server';
import { HttpError } from '../../src/server';
import { EmptyTextError, LexiconEmotionAnalyser, LlmEmotionAnalyser, TextTooLongError, type EmotionAnalyser } from '../../src/server';
import type { TextGenerator } from '../../src/server';
import textProcessingSchema from '../../schemas/emotion-analysis/text-processing.schema.json';
import { emotionActions } from './automation-actions';
import { catalogue } from './catalogue';

/**
 * The analyser for this server: a chat model (through the shared text generator, with the
 * lexicon as its fallback) when LLM_BASE_URL is set, otherwise the built-in lexicon classifier.
 */
export function chooseEmotionAnalyser(llmBaseUrl: string | undefined, text: TextGenerator, log?: { warn(obj: Record<string, unknown>, msg?: string): void }): EmotionAnalyser {
  return llmBaseUrl ? new LlmEmotionAnalyser(text, log) : new LexiconEmotionAnalyser();
}

/** The analyser of the running server, for the engine step (set when the routes are registered). */
let started: EmotionAnalyser | undefined;

/**
 * Emotion analysis: workflow 10002 (combinations 6, 7) and the coming-soon 10003 (combination 15).
 * The automation engine's flowmatic_ai:analyse_emotions step uses the same analyser as the page.
 */
export default defineServerPlugin({
  id: 'emotion-analysis',
  catalogue,
  contributes: emotionActions(() => {
    if (!started) throw new Error('The emotion analysis plugin has not started yet, so its workflow step cannot run.');
    return started;
  }).map((a) => contribute(AutomationActions, a)),
  needs: { text: T.TextGenerator, config: T.ServerConfig, log: T.Logger },
  routes(app, { text, config, log }) {
    const analyser = chooseEmotionAnalyser(config.llmBaseUrl, text, log);
    started = analyser;
    app.post<{ Body: { text: string } }>(
      '/api/api/text_processing_json/',
      { auth: 'user', schema: { body: textProcessingSchema }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
      async (request) => {
        try {
          return { data: await analyser.analyse(request.body.text) };
        } catch (error) {
          if (error instanceof EmptyTextError || error instanceof TextTooLongError) throw new HttpError(error.statusCode, error.message);
          throw error;
        }
      },
    );
  },
});
