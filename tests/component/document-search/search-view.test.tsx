import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DocumentSearchView, {
  EMPTY_QUERY_MESSAGE,
  NOTHING_MATCHED,
  WRONG_TYPE_MESSAGE,
  NO_FILE_MESSAGE,
} from '../../../plugins/document-search/DocumentSearchView';
import { splitMarks } from '../../../plugins/document-search/highlight';
import { renderInShell, testShell } from '../../support/render';
import type { FakeHandler } from '../../support/fake-fetch';

const QUERY = 'POST /api/nlp-document-store/query';

function setup(routes: Record<string, FakeHandler>) {
  const shell = testShell({ loggedIn: true, routes });
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
    expect(shell.fetch.calls.at(-1)).toMatchObject({ path: '/api/plugins/document-search/index', body: { key: 'k.txt', bucket: 'uploads' } });
  });

  it('refuses a missing file or another type before uploading, and shows server refusals', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const shell = setup({
      'POST /api/platform/uploadworkflowfile': () => ({ status: 413, body: { status: 'error', message: 'The file is larger than the 10 MB limit.' } }),
    });
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText(NO_FILE_MESSAGE)).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Document file'), new File(['x'], 'photo.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText(WRONG_TYPE_MESSAGE)).toBeInTheDocument();
    expect(shell.fetch.calls.filter((c) => c.path.includes('upload'))).toHaveLength(0);
    await user.upload(screen.getByLabelText('Document file'), new File(['x'], 'huge.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText('The file is larger than the 10 MB limit.')).toBeInTheDocument();
  });
});
