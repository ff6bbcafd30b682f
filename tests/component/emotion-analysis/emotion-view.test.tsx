import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import EmotionAnalysisView, { EMPTY_TEXT_MESSAGE, TOO_LONG_MESSAGE } from '../../../plugins/emotion-analysis/EmotionAnalysisView';
import { EMOTION_STYLES } from '../../../plugins/emotion-analysis/emotion-style';
import { renderInShell, testShell } from '../../support/render';
import type { FakeHandler } from '../../support/fake-fetch';

const URL = 'POST /api/api/text_processing_json/';

function setup(handler: FakeHandler) {
  const shell = testShell({ loggedIn: true, routes: { [URL]: handler } });
  renderInShell(<EmotionAnalysisView />, shell, '/workflow/10002');
  return shell;
}

describe('EmotionAnalysisView (workflow 10002)', () => {
  it('sends the text and lists each sentence with its emotion, icon and colour', async () => {
    const user = userEvent.setup();
    const shell = setup(() => ({
      body: {
        data: [
          { emotion: 'joy', text: 'I love it!' },
          { emotion: 'anger', text: 'The delay made me furious.' },
          { emotion: 'neutral', text: 'It arrived on Monday.' },
        ],
      },
    }));
    await user.type(screen.getByRole('textbox', { name: /text to analyse/i }), 'I love it! The delay made me furious. It arrived on Monday.');
    await user.click(screen.getByRole('button', { name: 'Get Emotion' }));

    const list = await screen.findByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['JoyI love it!', 'AngerThe delay made me furious.', 'NeutralIt arrived on Monday.']);
    expect(items.map((li) => li.getAttribute('data-emotion'))).toEqual(['joy', 'anger', 'neutral']);
    // each badge carries its emotion's colour and an icon
    const badge = within(items[1]).getByText('Anger');
    expect(badge.style.color).toBe(EMOTION_STYLES.anger.color);
    expect(badge.querySelector('svg')).not.toBeNull();
    expect(screen.getByText('3 sentences')).toBeInTheDocument();
    expect(shell.fetch.calls.at(-1)).toMatchObject({ method: 'POST', body: { text: 'I love it! The delay made me furious. It arrived on Monday.' } });
    expect(shell.fetch.calls.at(-1)!.headers.Authorization).toBe('Bearer test-access');
  });

  it('does not send empty text and says why', async () => {
    const user = userEvent.setup();
    const shell = setup(() => ({ body: { data: [] } }));
    await user.type(screen.getByRole('textbox'), '   ');
    await user.click(screen.getByRole('button', { name: 'Get Emotion' }));
    expect(await screen.findByText(EMPTY_TEXT_MESSAGE)).toBeInTheDocument();
    expect(shell.fetch.calls.filter((c) => c.path.includes('text_processing'))).toHaveLength(0);
  });

  it('does not send text over the limit', async () => {
    const user = userEvent.setup();
    const shell = setup(() => ({ body: { data: [] } }));
    const box = screen.getByRole('textbox');
    await user.click(box);
    await user.paste('x'.repeat(20_001));
    await user.click(screen.getByRole('button', { name: 'Get Emotion' }));
    expect(await screen.findByText(TOO_LONG_MESSAGE)).toBeInTheDocument();
    expect(shell.fetch.calls.filter((c) => c.path.includes('text_processing'))).toHaveLength(0);
  });

  it("shows the server's message when the analysis fails", async () => {
    const user = userEvent.setup();
    setup(() => ({ status: 400, body: { status: 'error', message: 'Please enter some text to analyse; the text is empty.' } }));
    await user.type(screen.getByRole('textbox'), '...');
    await user.click(screen.getByRole('button', { name: 'Get Emotion' }));
    expect(await screen.findByText('Please enter some text to analyse; the text is empty.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows a spinner and disables the button while waiting', async () => {
    const user = userEvent.setup();
    let release!: () => void;
    setup(() => new Promise((r) => (release = () => r({ body: { data: [{ emotion: 'surprise', text: 'Wow.' }] } }))));
    await user.type(screen.getByRole('textbox'), 'Wow.');
    await user.click(screen.getByRole('button', { name: 'Get Emotion' }));
    expect(await screen.findByText('Analysing…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get Emotion' })).toBeDisabled();
    release();
    expect(await screen.findByText('Surprise')).toBeInTheDocument();
  });
});
