import type { TextGenerator } from '../../../src/server';
import type { PageContent } from '../../../src/server';
import { summarise, SummaryError } from '../engine/summariser';
import { contentTerms, jaccard, terminate } from '../engine/text-tools';
import { writePitch } from '../engine/voices';

const MAX_SUMMARY_CHARS = 2000;

/**
 * What a company's page says about it, in a few of its own sentences: the page's description
 * first (when it has one), then the most central sentences of its main text that do not repeat
 * it. Throws SummaryError when the page has neither.
 */
export function summarisePage(page: Pick<PageContent, 'description' | 'mainText'>): string {
  const description = page.description.trim();
  let sentences: string[] = [];
  try {
    sentences = summarise(page.mainText, { maxSentences: description ? 3 : 4 }).sentences;
  } catch (error) {
    if (!(error instanceof SummaryError) || !description) throw error;
  }
  const lead = new Set(contentTerms(description));
  const rest = description ? sentences.filter((s) => jaccard(new Set(contentTerms(s)), lead) < 0.5) : sentences;
  const text = [description, ...rest].filter(Boolean).map(terminate).join(' ');
  if (text.length <= MAX_SUMMARY_CHARS) return text;
  return `${text.slice(0, MAX_SUMMARY_CHARS).replace(/\s+\S*$/, '')}…`;
}

export interface PitchInput {
  companyName: string;
  voice: string;
  companyDescription: string;
}

/**
 * Writes a /hal sales pitch in the chosen voice through the text-generation interface (the
 * voice templates by default, the model when one is configured). Throws VoiceError or
 * CompanyFactsError for unusable input.
 */
export async function generatePitch(input: PitchInput, text: TextGenerator): Promise<string> {
  const task = writePitch(input);
  const reply = await text.generate(task);
  return reply.text.trim() || task.template();
}
