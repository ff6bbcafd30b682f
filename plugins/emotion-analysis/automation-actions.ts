import {
  AI_PROVIDER,
  defineAction,
  EmptyTextError,
  PermanentStepError,
  TextTooLongError,
  type ActionContext,
  type EmotionAnalyser,
  type FileRef,
} from '../../src/server';

/** Where the text of a run is: the previous step's or the trigger's `text` field, else its text files. */
async function textOf(input: unknown, ctx: ActionContext): Promise<{ text: string; source: string }> {
  const rec = (input && typeof input === 'object' ? input : {}) as { text?: unknown; data?: { text?: unknown }; files?: unknown };
  for (const candidate of [rec.text, rec.data?.text, ctx.trigger.data.text]) {
    if (typeof candidate === 'string' && candidate.trim()) return { text: candidate, source: 'the submitted text' };
  }
  const files = (Array.isArray(rec.files) ? (rec.files as FileRef[]) : ctx.trigger.files).filter((f) => f.kind === 'txt');
  if (files.length) {
    const parts = await Promise.all(files.map((f) => ctx.files.read(ctx.userId, f.bucket, f.key)));
    return { text: parts.map((b) => b.toString('utf8')).join('\n\n'), source: files.map((f) => `"${f.name}"`).join(', ') };
  }
  throw new PermanentStepError('This step analyses text, but the run brought none: submit some text (a "text" field) or a .txt file.');
}

/**
 * flowmatic_ai:analyse_emotions: splits the run's text into sentences and labels each with one
 * of the seven emotions (the same analyser as the emotion page). Returns the sentences, the
 * count per emotion and the most frequent felt emotion ('neutral' when none is felt).
 */
export function emotionSteps(analyser: EmotionAnalyser) {
  return [
    defineAction({
      provider: AI_PROVIDER,
      action: 'analyse_emotions',
      title: 'Analyse the emotions',
      description: "Labels each sentence of the run's text (or its .txt files) with one of seven emotions.",
      output: {
        type: 'object',
        required: ['sentences', 'counts', 'dominant'],
        properties: {
          sentences: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' }, emotion: { type: 'string' } } } },
          counts: { type: 'object', additionalProperties: { type: 'integer' } },
          dominant: { type: 'string' },
        },
      },
      async run(input, ctx) {
        const { text, source } = await textOf(input, ctx);
        let sentences;
        try {
          sentences = await analyser.analyse(text);
        } catch (error) {
          if (error instanceof EmptyTextError || error instanceof TextTooLongError) throw new PermanentStepError(`${source}: ${error.message}`);
          throw error;
        }
        const counts: Record<string, number> = {};
        for (const s of sentences) counts[s.emotion] = (counts[s.emotion] ?? 0) + 1;
        const felt = Object.entries(counts)
          .filter(([e]) => e !== 'neutral')
          .sort((a, b) => b[1] - a[1]);
        return { sentences, counts, dominant: felt[0]?.[0] ?? 'neutral', rows: sentences.map((s, i) => [i + 1, s.text, s.emotion]) };
      },
    }),
  ];
}
