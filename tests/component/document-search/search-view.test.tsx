import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DocumentSearchView, {
  EMPTY_QUERY_MESSAGE,
  NOTHING_MATCHED,
  WRONG_TYPE_MESSAGE,
  NO_FILE_MESSAGE,
  LIST_REFRESH_MS,
  type ListedDocument,
} from '../../../plugins/document-search/DocumentSearchView';
import { splitMarks } from '../../../plugins/document-search/highlight';
import { renderInShell, testShell } from '../../support/render';
import type { FakeHandler } from '../../support/fake-fetch';

const QUERY = 'POST /api/nlp-document-store/query';
const DOCUMENTS = 'GET /api/plugins/document-search/documents';

function setup(routes: Record<string, FakeHandler>) {
  const shell = testShell({ loggedIn: true, routes: { [DOCUMENTS]: () => ({ body: { documents: [] } }), ...routes } });
  renderInShell(<DocumentSearchView />, shell, '/workflow/10011');
  return shell;
}

describe('splitMarks', () => {
  it('splits a passage on its markers', () => {
    expect(splitMarks('a <mark>late</mark> <mark>fee</mark>.')).toEqual([
      { text: 'a ', marked: false },
      { text: 'late', marked: true },
      { text: ' ', marked: false },
      { text: 'fee', marked: true },
      { text: '.', marked: false },
    ]);
    expect(splitMarks('no marks')).toEqual([{ text: 'no marks', marked: false }]);
  });
});

describe('DocumentSearchView (workflow 10011)', () => {
  it('searches and lists each document with its passage, matched words marked, and a download link', async () => {
    const user = userEvent.setup();
    const shell = setup({
      [QUERY]: () => ({
        body: {
          results: [
            {
              document: 'march-invoices.txt',
              documentText: 'paid <mark>late</mark>, with a <b>fee</b> <mark>payment</mark>',
              documentUri: '/api/files/download?token=abc',
            },
            { document: 'notes.pdf', documentText: 'a <mark>late</mark> note', documentUri: '/api/files/download?token=def' },
          ],
        },
      }),
    });
    await user.type(screen.getByRole('textbox', { name: /search your documents/i }), 'late payment');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    const results = await screen.findByRole('region', { name: 'Search results' });
    const items = within(results).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]).getByRole('heading', { name: 'march-invoices.txt' })).toBeInTheDocument();
    // marks become <mark> elements; any other markup stays visible text, never HTML
    expect([...items[0].querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['late', 'payment']);
    expect(items[0].querySelector('b')).toBeNull();
    expect(items[0].textContent).toContain('with a <b>fee</b> payment');
    const link = within(items[0]).getByRole('link', { name: 'Download Document march-invoices.txt' });
    expect(link).toHaveAttribute('href', '/api/files/download?token=abc');
    expect(link).toHaveTextContent('Download Document');
    expect(shell.fetch.calls.at(-1)).toMatchObject({ method: 'POST', path: '/api/nlp-document-store/query', body: { query: 'late payment' } });
  });

  it("says 'Sorry nothing matched your search' when there are no results", async () => {
    const user = userEvent.setup();
    setup({ [QUERY]: () => ({ body: { results: [] } }) });
    await user.type(screen.getByRole('textbox', { name: /search your documents/i }), 'zebra');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(NOTHING_MATCHED)).toBeInTheDocument();
  });

  it('does not send an empty query and says why', async () => {
    const user = userEvent.setup();
    const shell = setup({ [QUERY]: () => ({ body: { results: [] } }) });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(EMPTY_QUERY_MESSAGE)).toBeInTheDocument();
    expect(shell.fetch.calls.filter((c) => c.path.includes('nlp-document-store'))).toHaveLength(0);
  });

  it("shows the server's message when the search fails", async () => {
    const user = userEvent.setup();
    setup({ [QUERY]: () => ({ status: 500, body: { status: 'error', message: 'Something went wrong on our side. Please try again.' } }) });
    await user.type(screen.getByRole('textbox', { name: /search your documents/i }), 'invoice');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeInTheDocument();
  });

  it('uploads a text file, adds it to the index and reports it', async () => {
    const user = userEvent.setup();
    const shell = setup({
      'POST /api/platform/uploadworkflowfile': () => ({ body: { url: '/api/files/download?token=x', key: 'k.txt', bucket: 'uploads' } }),
      'POST /api/plugins/document-search/index': () => ({ body: { document: 'memo.txt', words: 1234 } }),
    });
    await user.upload(screen.getByLabelText('Document file'), new File(['Quarterly memo'], 'memo.txt', { type: 'text/plain' }));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText('“memo.txt” is now searchable (1,234 words).')).toBeInTheDocument();
    const uploadCall = shell.fetch.calls.find((c) => c.path === '/api/platform/uploadworkflowfile')!;
    const form = uploadCall.body as FormData;
    expect([...form.keys()]).toEqual(['name', 'file', 'country', 'workflow']);
    expect(form.get('workflow')).toBe('10011');
    expect(shell.fetch.calls.find((c) => c.path === '/api/plugins/document-search/index')).toMatchObject({ body: { key: 'k.txt', bucket: 'uploads' } });
  });

  it('uploads a scan, says it is being read, and lists it as indexing with its progress until it is searchable', async () => {
    const user = userEvent.setup();
    const lists: ListedDocument[][] = [
      [],
      [{ document: 'scan.png', status: 'indexing', progress: 0, uploads: 1 }],
      [
        { document: 'scan.png', status: 'indexing', progress: 50, uploads: 1 },
        { document: 'long-scan.pdf', status: 'searchable', message: 'The first 20 of 35 pages were read; the later pages are not searchable.', uploads: 1 },
        { document: 'blank.png', status: 'failed', message: 'No text could be read on this scan, so there is nothing to search in it.', uploads: 1 },
      ],
      [
        { document: 'scan.png', status: 'searchable', uploads: 2 },
        { document: 'long-scan.pdf', status: 'searchable', message: 'The first 20 of 35 pages were read; the later pages are not searchable.', uploads: 1 },
        { document: 'blank.png', status: 'failed', message: 'No text could be read on this scan, so there is nothing to search in it.', uploads: 1 },
      ],
    ];
    let listed = 0;
    const shell = setup({
      [DOCUMENTS]: () => ({ body: { documents: lists[Math.min(listed++, lists.length - 1)] } }),
      'POST /api/platform/uploadworkflowfile': () => ({ body: { url: '/api/files/download?token=x', key: 'k.png', bucket: 'uploads' } }),
      'POST /api/plugins/document-search/index': () => ({ body: { document: 'scan.png', indexing: true } }),
    });
    await user.upload(screen.getByLabelText('Document file'), new File([new Uint8Array([0x89, 0x50])], 'scan.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(
      await screen.findByText('“scan.png” is a scan: its text is being read, and it is listed below as indexing until it is searchable.'),
    ).toBeInTheDocument();
    const rows = async () =>
      within(await screen.findByRole('region', { name: 'Your documents' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    await waitFor(async () => expect(await rows()).toEqual(['scan.pngIndexing… 0% read']));
    await waitFor(
      async () =>
        expect(await rows()).toEqual([
          'scan.pngIndexing… 50% read',
          'long-scan.pdfSearchable. The first 20 of 35 pages were read; the later pages are not searchable.',
          'blank.pngNot searchable: No text could be read on this scan, so there is nothing to search in it.',
        ]),
      { timeout: 3 * LIST_REFRESH_MS },
    );
    await waitFor(async () => expect((await rows())[0]).toBe('scan.pngSearchable (uploaded 2 times)'), { timeout: 3 * LIST_REFRESH_MS });
    const asked = shell.fetch.calls.filter((c) => c.path === '/api/plugins/document-search/documents').length;
    // nothing is being read any more: the list stops asking
    await new Promise((r) => setTimeout(r, LIST_REFRESH_MS + 500));
    expect(shell.fetch.calls.filter((c) => c.path === '/api/plugins/document-search/documents')).toHaveLength(asked);
  }, 20_000);

  it('refuses a missing file or another type before uploading, and shows server refusals', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const shell = setup({
      'POST /api/platform/uploadworkflowfile': () => ({ status: 413, body: { status: 'error', message: 'The file is larger than the 10 MB limit.' } }),
    });
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText(NO_FILE_MESSAGE)).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Document file'), new File(['x'], 'sheet.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText(WRONG_TYPE_MESSAGE)).toBeInTheDocument();
    expect(shell.fetch.calls.filter((c) => c.path.includes('upload'))).toHaveLength(0);
    await user.upload(screen.getByLabelText('Document file'), new File(['x'], 'huge.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText('The file is larger than the 10 MB limit.')).toBeInTheDocument();
    // an XML e-invoice is sent (the server reads its data)
    expect(screen.getByLabelText('Document file')).toHaveAttribute('accept', expect.stringContaining('.xml'));
    await user.upload(screen.getByLabelText('Document file'), new File(['<Invoice/>'], 'rechnung.xml', { type: 'text/xml' }));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    await screen.findAllByText('The file is larger than the 10 MB limit.');
    expect(shell.fetch.calls.filter((c) => c.path.includes('upload'))).toHaveLength(2);
    expect(screen.queryByText(WRONG_TYPE_MESSAGE)).not.toBeInTheDocument();
  });
});
