import type { FastifyRequest } from 'fastify';
import { badRequest, defineServerPlugin, EmotionAnalysis, provide, userOf, type EmotionAnalysisService, type FileStore } from '../../src/server';
import { T } from '../../src/server';
import { HttpError } from '../../src/server';
import { EmptyTextError, LexiconEmotionAnalyser, LlmEmotionAnalyser, TextTooLongError, type EmotionAnalyser } from '../../src/server';
import type { TextGenerator } from '../../src/server';
import textProcessingSchema from '../../schemas/emotion-analysis/text-processing.schema.json';
import { emotionSteps } from './automation-actions';
import { catalogue } from './catalogue';
import { analyseFileText, type FileAnalysis } from './file-analysis';
import { readCsvTexts, readDocx, readPdfText, readTxt, type FileText } from './file-text';

/** POST a file (multipart, one `file` part): TXT, CSV of texts, PDF or DOCX → FileAnalysis. */
export const FILE_ROUTE = '/api/plugins/emotion-analysis/file';
const FILE_BUCKET = 'emotion-analysis';
const ACCEPTED = 'a TXT, CSV, PDF or DOCX file';

const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1);
};

/**
 * Reads an uploaded file's text. A ZIP container is read as a DOCX here; everything else goes
 * through the file store's own checks (kind decided by content, NUL bytes and invalid UTF-8
 * refused) and is deleted again once read: the analysis keeps nothing. Between CSV and TXT, both
 * text, the file's extension decides when it names one; otherwise its content does.
 */
export async function readUploadedText(files: FileStore, owner: number, name: string, bytes: Buffer, maxBytes: number): Promise<FileText> {
  if (bytes.length === 0) throw badRequest('The file is empty: there is no text to analyse.');
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x504b0304) return readDocx(bytes);
  let stored: Awaited<ReturnType<FileStore['put']>>;
  try {
    stored = await files.put(owner, bytes, { originalName: name, allowed: ['pdf', 'csv', 'txt'], maxBytes, bucket: FILE_BUCKET });
  } catch (error) {
    // "The uploaded file is not a PDF, CSV or text file (it is a PNG image)." — name what this page takes
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 415) {
      const reason = /\((.+)\)\.$/.exec((error as Error).message)?.[1];
      throw new HttpError(415, `This file is not ${ACCEPTED}${reason ? ` (${reason})` : ''}.`);
    }
    throw error;
  }
  await files.delete(owner, stored.bucket, stored.key).catch(() => undefined);
  if (stored.kind === 'pdf') return readPdfText(bytes);
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  const asCsv = extension === 'csv' || extension === 'tsv' || (extension !== 'txt' && stored.kind === 'csv');
  return asCsv ? readCsvTexts(name, bytes) : readTxt(bytes);
}

/** The upload's one `file` part, in memory (at most MAX_UPLOAD_MB: the product's multipart limit). */
async function receiveFile(request: FastifyRequest, maxBytes: number): Promise<{ name: string; bytes: Buffer }> {
  if (!request.isMultipart()) throw badRequest(`Choose ${ACCEPTED} to analyse.`);
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file();
    if (!part) throw badRequest(`Choose ${ACCEPTED} to analyse.`);
    const bytes = await part.toBuffer();
    return { name: (part.filename || 'file').slice(0, 200), bytes };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, `The file is larger than the ${megabytes(maxBytes)} MB limit.`);
    if (typeof code === 'string' && code.startsWith('FST_')) throw badRequest('The upload was interrupted or malformed; choose the file again.');
    throw error;
  }
}

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
  needs: { analyser: EmotionAnalysis, files: T.FileStore, config: T.ServerConfig },
  steps: ({ analyser }) => emotionSteps(analyser),
  routes(app, { analyser, files, config }) {
    app.post<{ Body: { text: string } }>(
      '/api/api/text_processing_json/',
      { auth: 'user', schema: { body: textProcessingSchema }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
      async (request) => analyser.textProcessing(request.body.text),
    );

    app.post(
      FILE_ROUTE,
      { auth: 'user', config: { rateLimit: { max: 20, timeWindow: '1 minute' }, multipartLimit: config.maxUploadBytes + 64 * 1024 } },
      async (request): Promise<FileAnalysis> => {
        const owner = userOf(request).id;
        const { name, bytes } = await receiveFile(request, config.maxUploadBytes);
        const text = await readUploadedText(files, owner, name, bytes, config.maxUploadBytes);
        const analysis = await analyseFileText(analyser, name, text);
        if (analysis.sentences.length === 0) throw new HttpError(422, 'No sentences were found in this file, so there is nothing to analyse.');
        return analysis;
      },
    );
  },
});
