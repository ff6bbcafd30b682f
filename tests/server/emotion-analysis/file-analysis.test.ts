import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import emotionAnalysis, { FILE_ROUTE } from '../../../plugins/emotion-analysis/server';
import { chunksOf, piecesOf } from '../../../plugins/emotion-analysis/file-analysis';
import { docxParagraphs } from '../../../plugins/emotion-analysis/file-text';
import { multipartBody } from '../document-search/multipart';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

const JOY = 'I love the new dashboard, it is wonderful!';
const NEUTRAL = 'The invoice arrived on Tuesday.';
const ANGER = 'I am furious that my order was cancelled again.';

async function pdfWith(pages: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 12, font }));
  }
  return Buffer.from(await doc.save());
}

const paragraph = (runs: string) => `<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr>${runs}</w:p>`;
const run = (text: string) => `<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;

function docxWith(bodyXml: string): Buffer {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${bodyXml}<w:sectPr/></w:body></w:document>`;
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      '_rels/.rels': strToU8('<?xml version="1.0"?><Relationships/>'),
      'word/document.xml': strToU8(document),
    }),
  );
}

describe('POST /api/plugins/emotion-analysis/file (workflow 10002, a file)', () => {
  let server: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [connectorDeclarations, emotionAnalysis] });
    user = await createUser(server);
  });
  afterAll(() => server.close());

  async function send(filename: string, content: Buffer, token: string | null = user.access) {
    const { body, contentType } = multipartBody([{ name: 'file', filename, content }]);
    const res = await server.app.inject({
      method: 'POST',
      url: FILE_ROUTE,
      payload: body,
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  }

  /** The joyful, the neutral and the angry sentence, in the order read, and their equal shares. */
  const THREE_SENTENCES = [
    { emotion: 'joy', text: JOY },
    { emotion: 'neutral', text: NEUTRAL },
    { emotion: 'anger', text: ANGER },
  ];
  const THIRDS = [
    { emotion: 'joy', count: 1, percent: 33.3 },
    { emotion: 'anger', count: 1, percent: 33.3 },
    { emotion: 'neutral', count: 1, percent: 33.3 },
  ];

  it('reads a TXT file paragraph by paragraph and gives each emotion its share', async () => {
    const res = await send('reviews.txt', Buffer.from(`\uFEFF${JOY} ${NEUTRAL}\r\n\r\n${ANGER}\nI love it!\n`));
    expect(res).toEqual({
      status: 200,
      body: {
        file: { name: 'reviews.txt', kind: 'txt' },
        read: 'Read 2 paragraphs.',
        notices: [],
        sentences: [
          { emotion: 'joy', text: JOY },
          { emotion: 'neutral', text: NEUTRAL },
          { emotion: 'anger', text: ANGER },
          { emotion: 'joy', text: 'I love it!' },
        ],
        shares: [
          { emotion: 'joy', count: 2, percent: 50 },
          { emotion: 'anger', count: 1, percent: 25 },
          { emotion: 'neutral', count: 1, percent: 25 },
        ],
        capped: false,
      },
    });
  });

  it('reads the comment column of a CSV, one cell at a time', async () => {
    const csv = ['id,comment,date', `1,"${JOY}",2024-01-02`, `2,${NEUTRAL},2024-01-03`, '3,,2024-01-04', `4,"${ANGER}",2024-01-05`].join('\n');
    const res = await send('survey.csv', Buffer.from(csv));
    expect(res).toEqual({
      status: 200,
      body: {
        file: { name: 'survey.csv', kind: 'csv' },
        read: 'Read the comment column (4 rows).',
        notices: ['1 row had no text in that column and was skipped.'],
        sentences: THREE_SENTENCES,
        shares: THIRDS,
        capped: false,
      },
    });
  });

  it('takes the column with the longest texts when none is named text, comment or message', async () => {
    const csv = ['ref;customer;feedback', `A1;Ann;${ANGER}`, `A2;Bob;${JOY}`].join('\n');
    const res = await send('export.csv', Buffer.from(csv));
    expect(res.status).toBe(200);
    expect(res.body.read).toBe('Read the feedback column (2 rows).');
    expect(res.body.sentences).toEqual([
      { emotion: 'anger', text: ANGER },
      { emotion: 'joy', text: JOY },
    ]);
  });

  it("reads a PDF's text layer and says how many pages were read", async () => {
    const res = await send('letter.pdf', await pdfWith([[JOY, NEUTRAL], [ANGER]]));
    expect(res).toEqual({
      status: 200,
      body: {
        file: { name: 'letter.pdf', kind: 'pdf' },
        read: 'Read all 2 pages of the PDF.',
        notices: [],
        sentences: THREE_SENTENCES,
        shares: THIRDS,
        capped: false,
      },
    });
  });

  it("reads a DOCX's paragraphs (runs joined, entities decoded)", async () => {
    const body = [
      paragraph(run('I love the new dashboard, ') + run('it is wonderful!')),
      '<w:tbl><w:tr><w:tc>' + paragraph(run('The invoice arrived on Tuesday.')) + '</w:tc></w:tr></w:tbl>',
      paragraph(''),
      paragraph(run('I am furious that my order was cancelled again.') + '<w:r><w:tab/></w:r>' + run('Fish &amp; chips &#8211; cold.')),
    ].join('');
    const res = await send('notes.docx', docxWith(body));
    expect(res).toEqual({
      status: 200,
      body: {
        file: { name: 'notes.docx', kind: 'docx' },
        read: 'Read 3 paragraphs of the Word document.',
        notices: [],
        sentences: [
          { emotion: 'joy', text: JOY },
          { emotion: 'neutral', text: NEUTRAL },
          { emotion: 'anger', text: ANGER },
          { emotion: 'neutral', text: 'Fish & chips – cold.' },
        ],
        shares: [
          { emotion: 'neutral', count: 2, percent: 50 },
          { emotion: 'joy', count: 1, percent: 25 },
          { emotion: 'anger', count: 1, percent: 25 },
        ],
        capped: false,
      },
    });
  });

  it('refuses a DOCX that inflates to 40 MB (a zip bomb) before reading it', async () => {
    const bomb = docxWith(paragraph(run('a'.repeat(40 * 1024 * 1024))));
    expect(bomb.length).toBeLessThan(200_000);
    expect(await send('bomb.docx', bomb)).toEqual({
      status: 413,
      body: { status: 'error', message: 'This Word document expands to far more than its size when opened (past 32 MB), so it was not opened.' },
    });
  });

  it('stops at 5,000 sentences and says the cap cut the file', async () => {
    const text = Array.from({ length: 5_200 }, (_, i) => `Line ${i + 1} is here.`).join(' ');
    const res = await send('long.txt', Buffer.from(text));
    expect(res.status).toBe(200);
    expect(res.body.sentences).toHaveLength(5_000);
    expect(res.body.sentences[0]).toEqual({ emotion: 'neutral', text: 'Line 1 is here.' });
    expect(res.body.sentences[4_999]).toEqual({ emotion: 'neutral', text: 'Line 5000 is here.' });
    expect(res.body.capped).toBe(true);
    expect(res.body.notices).toEqual([
      'The file holds more than 5,000 sentences, the most one analysis reads: the first 5,000 were analysed and the rest left out.',
    ]);
    expect(res.body.shares).toEqual([{ emotion: 'neutral', count: 5_000, percent: 100 }]);
  });

  it.each([
    ['an empty file', 'empty.txt', Buffer.alloc(0), 400, 'The file is empty: there is no text to analyse.'],
    ['a blank text', 'blank.txt', Buffer.from(' \n\n \t\n'), 422, 'No sentences were found in this file, so there is nothing to analyse.'],
    [
      'a zip that is no Word document',
      'photos.docx',
      Buffer.from(zipSync({ 'a.txt': strToU8('hello') })),
      422,
      'This file is a zip archive but not a Word document (DOCX), so it has no text to analyse.',
    ],
    [
      'a damaged DOCX',
      'cut.docx',
      docxWith(paragraph(run(JOY))).subarray(0, 60),
      422,
      'This Word document is damaged or incomplete, so its text could not be read.',
    ],
    ['a CSV with a header only', 'head.csv', Buffer.from('id,comment\n'), 422, 'This CSV file has a header row but no rows of text under it.'],
  ])('refuses %s with a sentence', async (_label, name, content, status, message) => {
    expect(await send(name, content)).toEqual({ status, body: { status: 'error', message } });
  });

  it('refuses binary data and images, naming the kinds it takes', async () => {
    const binary = await send('program.txt', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]));
    expect(binary.status).toBe(415);
    expect(binary.body.message).toBe('This file is not a TXT, CSV, PDF or DOCX file (it looks like a Windows program).');
    const zeros = await send('data.txt', Buffer.from('one line\u0000 and a zero byte\n'));
    expect(zeros.status).toBe(415);
    expect(zeros.body.message).toBe('This file is not a TXT, CSV, PDF or DOCX file (it holds binary data, not text).');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const image = await send('photo.png', png);
    expect(image.status).toBe(415);
    expect(image.body.message).toMatch(/^This file is not a TXT, CSV, PDF or DOCX file \(it is a PNG image\)\.$/);
  });

  it('refuses a file over the upload limit', async () => {
    expect(await send('big.txt', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'))).toEqual({
      status: 413,
      body: { status: 'error', message: expect.stringMatching(/10 MB/) },
    });
  });

  it('refuses a request without a file, and callers who are not signed in', async () => {
    const res = await server.call('POST', FILE_ROUTE, { token: user.access, body: { text: 'hello' } });
    expect(res).toMatchObject({ status: 400, body: { status: 'error', message: 'Choose a TXT, CSV, PDF or DOCX file to analyse.' } });
    expect((await send('a.txt', Buffer.from(JOY), null)).status).toBe(401);
  });
});

describe('file text helpers', () => {
  it('cuts a long block at sentence ends, never inside a sentence', () => {
    expect(piecesOf('One two. Three four. Five six.', 20)).toEqual(['One two. ', 'Three four. ', 'Five six.']);
    expect(piecesOf('abcdefghij klmnop', 12)).toEqual(['abcdefghij ', 'klmnop']);
  });

  it('groups blocks into chunks under the limit, separated by blank lines', () => {
    expect([...chunksOf(['a b.', 'c d.', 'e f g h.'], 10)]).toEqual(['a b.\n\nc d.', 'e f g h.']);
  });

  it('takes the text of every paragraph of a Word body', () => {
    expect(
      docxParagraphs('<w:body><w:p><w:r><w:t>A</w:t></w:r><w:r><w:br/><w:t>B &lt;c&gt;</w:t></w:r></w:p><w:p/><w:p><w:r><w:t>D</w:t></w:r></w:p></w:body>'),
    ).toEqual(['A\nB <c>', 'D']);
  });
});
