import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { seriousAxeFindings, sidewaysOverflow } from './support/axe';
import { createVerifiedUser, logInThroughUi, startE2EApp, type E2EApp } from './support/app';

jest.setTimeout(240_000);

const JOY = 'I love the new dashboard, it is wonderful!';
const NEUTRAL = 'The invoice arrived on Tuesday.';
const ANGER = 'I am furious that my order was cancelled again.';

/**
 * Issue 25: Emotion Analysis from Text Files (workflow 10002) takes a file. In Debian's
 * Chromium: a TXT is chosen through the picker and a PDF after it; the page shows each emotion's
 * share with its numbers and, behind each emotion, its sentences; a picture is refused in a sentence.
 */
describe('emotion analysis of a file', () => {
  let app: E2EApp;
  const email = `emma.${Date.now()}@example.com`;
  const files = mkdtempSync(path.join(tmpdir(), 'flowmatic-e2e-emotion-'));

  beforeAll(async () => {
    app = await startE2EApp();
    await createVerifiedUser(app, { name: 'Emma Woodhouse', email, password: 'Highbury-Hartfield-1815' });
    await logInThroughUi(app, email, 'Highbury-Hartfield-1815');
  });
  afterAll(() => app?.close());

  it('uploads a TXT, then a PDF, and shows the share of each emotion with the sentences behind it', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/workflow/10002');
    await page.getByRole('heading', { name: 'Analyse a file' }).waitFor();
    await page.getByText('TXT, CSV (a column of texts), PDF with a text layer or Word (DOCX), up to 10 MB').waitFor();

    const txt = path.join(files, 'reviews.txt');
    writeFileSync(txt, `${JOY} ${NEUTRAL}\n\n${ANGER}\nI love it!\n`);
    await page.getByLabel('File to analyse').setInputFiles(txt);
    const result = page.getByRole('region', { name: 'Emotions in the file' });
    await result.getByRole('heading', { name: 'reviews.txt: 4 sentences' }).waitFor();
    const shares = result.getByRole('list', { name: 'Share of each emotion' }).getByRole('listitem');
    expect((await shares.allInnerTexts()).map(flat)).toEqual(['Joy 50% (2 of 4 sentences)', 'Anger 25% (1 of 4 sentences)', 'Neutral 25% (1 of 4 sentences)']);
    await result.getByRole('button', { name: 'Joy: 2 sentences' }).click();
    const joy = result.getByRole('listitem').filter({ hasText: /^I love/ });
    expect(await joy.allInnerTexts()).toEqual([JOY, 'I love it!']);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await app.screenshot('emotion-file-txt');

    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    [[ANGER], [NEUTRAL, JOY]].forEach((lines) => {
      const p = doc.addPage([595, 842]);
      lines.forEach((line, i) => p.drawText(line, { x: 50, y: 780 - i * 18, size: 12, font }));
    });
    const pdf = path.join(files, 'letter.pdf');
    writeFileSync(pdf, await doc.save());
    await page.getByLabel('File to analyse').setInputFiles(pdf);
    await result.getByRole('heading', { name: 'letter.pdf: 3 sentences' }).waitFor();
    await result.getByText('Read all 2 pages of the PDF.').waitFor();
    expect((await shares.allInnerTexts()).map(flat)).toEqual([
      'Joy 33.3% (1 of 3 sentences)',
      'Anger 33.3% (1 of 3 sentences)',
      'Neutral 33.3% (1 of 3 sentences)',
    ]);
    await result.getByRole('button', { name: 'Anger: 1 sentence' }).click();
    await result.getByRole('listitem').filter({ hasText: ANGER }).waitFor();

    // at a phone's width the shares still fit and axe finds nothing serious
    await page.setViewportSize({ width: 320, height: 800 });
    expect(await sidewaysOverflow(page)).toEqual({ scrollWidth: 320, innerWidth: 320 });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await app.screenshot('emotion-file-pdf-320');
    await page.setViewportSize({ width: 1366, height: 900 });

    const png = path.join(files, 'photo.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    await page.getByLabel('File to analyse').setInputFiles(png);
    await page.getByText('This file type is not supported: choose a TXT, CSV, PDF or DOCX file.').waitFor();
    const renamed = path.join(files, 'photo.txt');
    writeFileSync(renamed, Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    await page.getByLabel('File to analyse').setInputFiles(renamed);
    await page.getByText('This file is not a TXT, CSV, PDF or DOCX file (it is a PNG image).').waitFor();
  });
});

/** Inner text with its line breaks and runs of spaces as one space. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
