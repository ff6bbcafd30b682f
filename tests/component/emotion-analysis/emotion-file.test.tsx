import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import EmotionAnalysisView from '../../../plugins/emotion-analysis/EmotionAnalysisView';
import {
  EMPTY_FILE_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  WRONG_FILE_TYPE_MESSAGE,
  type FileAnalysisReply,
} from '../../../plugins/emotion-analysis/EmotionFileAnalysis';
import { EMOTION_STYLES } from '../../../plugins/emotion-analysis/emotion-style';
import { renderInShell, testShell } from '../../support/render';
import type { FakeHandler } from '../../support/fake-fetch';

const ROUTE = 'POST /api/plugins/emotion-analysis/file';

const REPLY: FileAnalysisReply = {
  file: { name: 'reviews.txt', kind: 'txt' },
  read: 'Read 2 paragraphs.',
  notices: [],
  sentences: [
    { emotion: 'joy', text: 'I love the new dashboard!' },
    { emotion: 'neutral', text: 'The invoice arrived on Tuesday.' },
    { emotion: 'anger', text: 'I am furious about the delay.' },
    { emotion: 'joy', text: 'Great support.' },
  ],
  shares: [
    { emotion: 'joy', count: 2, percent: 50 },
    { emotion: 'anger', count: 1, percent: 25 },
    { emotion: 'neutral', count: 1, percent: 25 },
  ],
  capped: false,
};

function setup(handler: FakeHandler) {
  const shell = testShell({ loggedIn: true, routes: { [ROUTE]: handler } });
  renderInShell(<EmotionAnalysisView />, shell, '/workflow/10002');
  return shell;
}

const fileInput = () => screen.getByLabelText('File to analyse') as HTMLInputElement;

describe('EmotionAnalysisView: analysing a file', () => {
  it('states the accepted types and limit, and the picker is a keyboard-reachable button', async () => {
    const user = userEvent.setup();
    setup(() => ({ body: REPLY }));
    expect(screen.getByRole('heading', { name: 'Analyse a file' })).toBeInTheDocument();
    const choose = screen.getByRole('button', { name: 'Choose a file' });
    expect(choose).toHaveAccessibleDescription(
      'TXT, CSV (a column of texts), PDF with a text layer or Word (DOCX), up to 10 MB; the first 5,000 sentences are analysed.',
    );
    expect(fileInput().accept).toBe(
      '.txt,.csv,.pdf,.docx,text/plain,text/csv,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const click = jest.spyOn(fileInput(), 'click');
    choose.focus();
    await user.keyboard('{Enter}');
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('uploads the chosen file, shows progress, then the share of each emotion and its sentences', async () => {
    const user = userEvent.setup();
    let release!: () => void;
    const shell = setup(() => new Promise((r) => (release = () => r({ body: REPLY }))));
    await user.upload(fileInput(), new File(['I love the new dashboard! …'], 'reviews.txt', { type: 'text/plain' }));

    expect(await screen.findByRole('progressbar', { name: 'Reading and analysing reviews.txt' })).toBeInTheDocument();
    expect(screen.getByText('Reading and analysing reviews.txt…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeDisabled();
    const call = shell.fetch.calls.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', path: '/api/plugins/emotion-analysis/file' });
    expect(call.headers.Authorization).toBe('Bearer test-access');
    const sent = (call.body as FormData).get('file') as File;
    expect(sent.name).toBe('reviews.txt');
    const content = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(sent);
    });
    expect(content).toBe('I love the new dashboard! …');

    release();
    const result = await screen.findByRole('region', { name: 'Emotions in the file' });
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(result).getByRole('heading', { name: 'reviews.txt: 4 sentences' })).toBeInTheDocument();
    expect(within(result).getByText('Read 2 paragraphs.')).toBeInTheDocument();

    const shares = within(within(result).getByRole('list', { name: 'Share of each emotion' })).getAllByRole('listitem');
    expect(shares.map((li) => li.textContent)).toEqual(['Joy50% (2 of 4 sentences)', 'Anger25% (1 of 4 sentences)', 'Neutral25% (1 of 4 sentences)']);
    expect(shares.map((li) => li.getAttribute('data-emotion'))).toEqual(['joy', 'anger', 'neutral']);
    const joyBar = shares[0].querySelector('[aria-hidden="true"] > div') as HTMLElement;
    expect(joyBar.style.width).toBe('50%');
    expect(joyBar.style.backgroundColor).toBe(EMOTION_STYLES.joy.color);

    // each emotion's sentences sit behind its header
    const joy = within(result).getByRole('button', { name: 'Joy: 2 sentences' });
    expect(within(result).getByRole('button', { name: 'Anger: 1 sentence' })).toBeInTheDocument();
    expect(within(result).getByRole('button', { name: 'Neutral: 1 sentence' })).toBeInTheDocument();
    await user.click(joy);
    const joyList = await within(result).findByRole('list', { name: '' });
    expect(
      within(joyList)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['I love the new dashboard!', 'Great support.']);
  });

  it('accepts a dropped file', async () => {
    const shell = setup(() => ({ body: REPLY }));
    const file = new File(['a,b'], 'survey.csv', { type: 'text/csv' });
    fireEvent.drop(screen.getByTestId('emotion-file-drop'), { dataTransfer: { files: [file] } });
    expect(await screen.findByRole('region', { name: 'Emotions in the file' })).toBeInTheDocument();
    expect(((shell.fetch.calls.at(-1)!.body as FormData).get('file') as File).name).toBe('survey.csv');
  });

  it('lists the first 50 sentences of an emotion and the rest on request, and shows notices', async () => {
    const user = userEvent.setup();
    const sentences = Array.from({ length: 60 }, (_, i) => ({ emotion: 'sadness', text: `Sad line ${i + 1}.` }));
    setup(() => ({
      body: {
        ...REPLY,
        notices: ['The file holds more than 5,000 sentences, the most one analysis reads: the first 5,000 were analysed and the rest left out.'],
        capped: true,
        sentences,
        shares: [{ emotion: 'sadness', count: 60, percent: 100 }],
      },
    }));
    await user.upload(fileInput(), new File(['x'], 'long.txt'));
    const result = await screen.findByRole('region', { name: 'Emotions in the file' });
    expect(within(result).getByText(/first 5,000 were analysed and the rest left out/)).toBeInTheDocument();
    await user.click(within(result).getByRole('button', { name: 'Sadness: 60 sentences' }));
    const items = () => within(result).getAllByText(/^Sad line \d+\.$/);
    expect(items()).toHaveLength(50);
    await user.click(within(result).getByRole('button', { name: 'Show all 60 sentences' }));
    expect(items().map((el) => el.textContent)).toEqual(sentences.map((s) => s.text));
  });

  it.each([
    ['a file of another type', new File(['x'], 'photo.png', { type: 'image/png' }), WRONG_FILE_TYPE_MESSAGE],
    ['an empty file', new File([], 'empty.txt'), EMPTY_FILE_MESSAGE],
    ['a file over 10 MB', new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.pdf'), FILE_TOO_LARGE_MESSAGE],
  ])('does not send %s and says why', async (_label, file, message) => {
    const shell = setup(() => ({ body: REPLY }));
    fireEvent.change(fileInput(), { target: { files: [file] } });
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(shell.fetch.calls.filter((c) => c.path.includes('emotion-analysis/file'))).toHaveLength(0);
  });

  it("shows the server's sentence when the file is refused", async () => {
    const user = userEvent.setup();
    setup(() => ({
      status: 413,
      body: { status: 'error', message: 'This Word document expands to far more than its size when opened (past 32 MB), so it was not opened.' },
    }));
    await user.upload(fileInput(), new File(['PK'], 'bomb.docx'));
    expect(await screen.findByText('This Word document expands to far more than its size when opened (past 32 MB), so it was not opened.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Emotions in the file' })).not.toBeInTheDocument();
  });
});
