import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DocumentExtractionView, { DOCUMENT_POLL_MS, UPLOAD_FIRST_MESSAGE } from '../../../plugins/document-extraction/DocumentExtractionView';
import { NO_FILE_MESSAGE } from '../../../src/app/components/extraction/DocumentUploadForm';
import { TOO_LARGE_MESSAGE, WRONG_TYPE_MESSAGE, MAX_DOCUMENT_BYTES } from '../../../src/app/components/extraction/file-checks';
import { humaniseLabel } from '../../../src/app/components/extraction/labels';
import { renderInShell, testShell } from '../../support/render';
import type { fakeFetch } from '../../support/fake-fetch';
import { fakeFiles, fileOf } from './support';

function setup(routes: Parameters<typeof fakeFetch>[0], opts: { pollMs?: number; files?: Parameters<typeof fakeFiles>[1] } = {}) {
  const shell = testShell({ loggedIn: true, routes });
  const files = fakeFiles(shell, opts.files);
  renderInShell(<DocumentExtractionView workflowId={10006} pollMs={opts.pollMs ?? 5} />, shell, '/workflow/10006');
  return { shell, files };
}

const input = () => screen.getByLabelText('Document file') as HTMLInputElement;

describe('DocumentExtractionView (workflow 10006)', () => {
  it('uploads with progress, starts the job, polls its status with progress, then lists the Fields with humanised labels', async () => {
    const user = userEvent.setup();
    let statusCalls = 0;
    const { shell, files } = setup(
      {
        'POST /api/document-extraction/extract': { body: { Job_ID: 'document-extraction.extract/j1', Status: 'IN_PROGRESS' } },
        'POST /api/document-extraction/status': () => {
          statusCalls += 1;
          return statusCalls < 3
            ? { body: { Job_ID: 'j1', Status: 'IN_PROGRESS', progress: 40, message: 'Reading the document' } }
            : { body: { Job_ID: 'j1', Status: 'SUCCEEDED', progress: 100 } };
        },
        'POST /api/document-extraction/complete': {
          body: {
            Job_ID: 'j1',
            Status: 'SUCCEEDED',
            bucket: 'uploads',
            key: 'k-1.pdf',
            pages: 3,
            pages_read: 3,
            Fields: [
              { label: 'invoice_number', result: 'INV-1' },
              { label: 'Consignee', result: 'Acme Ltd, 1 High St' },
              { label: 'ship__to', result: 'Dock 4' },
            ],
          },
        },
      },
      // polled every 300 ms: the 40% it reports twice stays on the page long enough to be seen on a slow machine
      { files: { holdUpload: true }, pollMs: 300 },
    );
    await user.upload(input(), fileOf('note.pdf', 'application/pdf'));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText('Uploading… 50%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Uploading the document' })).toBeInTheDocument();
    act(() => files.release());
    expect(await screen.findByText('note.pdf uploaded.')).toBeInTheDocument();
    expect(files.calls.uploads[0].workflow).toBe(10006);

    await user.click(screen.getByRole('button', { name: 'Process Document' }));
    expect(await screen.findByText('Reading the document… 40%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: "Extracting the document's fields" })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Extracted fields' })).toBeInTheDocument();
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    expect(terms).toEqual(['Invoice number', 'Consignee', 'Ship to']);
    expect(screen.getByTestId('pages-read')).toHaveTextContent('Read 3 of 3 pages.');
    expect(screen.getByText('Acme Ltd, 1 High St')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    const posted = shell.fetch.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body]);
    expect(posted[0]).toEqual(['/api/document-extraction/extract', { timeout: 5, key: 'k-1.pdf', bucket: 'uploads' }]);
    expect(posted.slice(1, 4).map((p) => p[1])).toEqual([
      { jobId: 'document-extraction.extract/j1' },
      { jobId: 'document-extraction.extract/j1' },
      { jobId: 'document-extraction.extract/j1' },
    ]);
    expect(posted.at(-1)).toEqual(['/api/document-extraction/complete', { jobId: 'document-extraction.extract/j1' }]);
  });

  it('asks for a file before uploading, and for an upload before processing', async () => {
    const user = userEvent.setup();
    const { shell, files } = setup({});
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByText(NO_FILE_MESSAGE)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Process Document' }));
    expect(await screen.findByText(UPLOAD_FIRST_MESSAGE)).toBeInTheDocument();
    expect(files.calls.uploads).toHaveLength(0);
    expect(shell.fetch.calls).toHaveLength(0);
  });

  it('refuses a wrong file type and a file that is too large before sending anything', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const { files } = setup({});
    await user.upload(input(), fileOf('table.csv', 'text/csv'));
    expect(await screen.findByText(WRONG_TYPE_MESSAGE)).toBeInTheDocument();
    await user.upload(input(), fileOf('huge.pdf', 'application/pdf', MAX_DOCUMENT_BYTES + 1));
    expect(await screen.findByText(TOO_LARGE_MESSAGE)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(files.calls.uploads).toHaveLength(0);
  });

  it("shows the server's message when the upload is refused (an unreadable file)", async () => {
    const user = userEvent.setup();
    setup({}, { files: { uploadError: { status: 415, message: 'The file looks like a PDF but it is damaged or incomplete.' } } });
    await user.upload(input(), fileOf('broken.pdf', 'application/pdf'));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file looks like a PDF but it is damaged or incomplete.');
  });

  it('stops loading and shows the message when the job fails', async () => {
    const user = userEvent.setup();
    setup({
      'POST /api/document-extraction/extract': { body: { Job_ID: 'j2' } },
      'POST /api/document-extraction/status': {
        body: { Job_ID: 'j2', Status: 'FAILED', progress: 100, message: 'The document could not be read: The PDF is damaged.' },
      },
    });
    await user.upload(input(), fileOf('broken.pdf', 'application/pdf'));
    await user.click(screen.getByRole('button', { name: 'Upload Document' }));
    await screen.findByText('broken.pdf uploaded.');
    await user.click(screen.getByRole('button', { name: 'Process Document' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The document could not be read: The PDF is damaged.');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Process Document' })).toBeEnabled();
  });

  it('polls every 7 seconds by default', async () => {
    jest.useFakeTimers();
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      const shell = testShell({
        loggedIn: true,
        routes: {
          'POST /api/document-extraction/extract': { body: { Job_ID: 'j3' } },
          'POST /api/document-extraction/status': { body: { Job_ID: 'j3', Status: 'IN_PROGRESS', progress: 10, message: 'Reading the document' } },
        },
      });
      fakeFiles(shell);
      renderInShell(<DocumentExtractionView workflowId={10006} />, shell, '/workflow/10006');
      await user.upload(input(), fileOf('a.pdf', 'application/pdf'));
      await user.click(screen.getByRole('button', { name: 'Upload Document' }));
      await screen.findByText('a.pdf uploaded.');
      await user.click(screen.getByRole('button', { name: 'Process Document' }));
      const statusCalls = () => shell.fetch.calls.filter((c) => c.path === '/api/document-extraction/status').length;
      await waitFor(() => expect(shell.fetch.calls.some((c) => c.path === '/api/document-extraction/extract')).toBe(true));
      await act(async () => void jest.advanceTimersByTime(DOCUMENT_POLL_MS - 100));
      expect(statusCalls()).toBe(0);
      await act(async () => void jest.advanceTimersByTime(200));
      await waitFor(() => expect(statusCalls()).toBe(1));
      await act(async () => void jest.advanceTimersByTime(DOCUMENT_POLL_MS));
      await waitFor(() => expect(statusCalls()).toBe(2));
    } finally {
      jest.useRealTimers();
    }
  });

  it('humanises labels: underscores to spaces, first letter capitalised', () => {
    expect(humaniseLabel('invoice_number')).toBe('Invoice number');
    expect(humaniseLabel('__due__date_')).toBe('Due date');
    expect(humaniseLabel('Total')).toBe('Total');
    expect(humaniseLabel('vendor_vat_id')).toBe('Vendor VAT ID');
    expect(humaniseLabel('po_number')).toBe('PO number');
    // a word that only holds an initialism is left as it is
    expect(humaniseLabel('Idea pool')).toBe('Idea pool');
  });
});
