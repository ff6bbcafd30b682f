import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import HalPage, { GENERATING_TEXT, HAL_VOICES, RETRIEVING_TEXT } from '../../../plugins/public-generators/HalPage';
import { renderInShell, testShell } from '../../support/render';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function fillAll(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/Company name/), 'Brightwater Analytics');
  await user.type(screen.getByLabelText(/Website/), 'brightwater.example');
  await user.type(screen.getByLabelText(/Email/), 'sales@brightwater.example');
  await user.selectOptions(screen.getByLabelText(/Voice/), 'Yoda');
}

describe('/hal', () => {
  it('offers the five voices and requires every field', async () => {
    const user = userEvent.setup();
    const shell = testShell();
    renderInShell(<HalPage />, shell, '/hal');
    const options = Array.from((screen.getByLabelText(/Voice/) as HTMLSelectElement).options)
      .filter((o) => o.value)
      .map((o) => o.value);
    expect(options).toEqual([...HAL_VOICES]);
    await user.click(screen.getByRole('button', { name: 'Write my pitch' }));
    expect(screen.getByText('Please enter your company name.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your website.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your email.')).toBeInTheDocument();
    expect(screen.getByText('Please choose a voice.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Email/), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Write my pitch' }));
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(shell.fetch.calls).toHaveLength(0);
  });

  it("shows 'Retrieving info on your website', then 'Generating pitch', then the pitch; close reloads the page", async () => {
    const user = userEvent.setup();
    const summary = deferred<{ body: unknown }>();
    const pitch = deferred<{ body: unknown }>();
    const shell = testShell({
      routes: {
        'POST /api/pitcher/page-summarization/': () => summary.promise,
        'POST /api/pitcher/generate': () => pitch.promise,
      },
    });
    renderInShell(<HalPage />, shell, '/hal');
    await fillAll(user);
    await user.click(screen.getByRole('button', { name: 'Write my pitch' }));

    expect(await screen.findByText(RETRIEVING_TEXT)).toBeInTheDocument();
    expect(shell.fetch.calls[0].body).toEqual({ url: 'brightwater.example' });
    summary.resolve({ body: { pageSummarization: 'Brightwater Analytics builds acoustic sensors.' } });

    expect(await screen.findByText(GENERATING_TEXT)).toBeInTheDocument();
    expect(shell.fetch.calls[1].body).toEqual({
      companyName: 'Brightwater Analytics',
      voice: 'Yoda',
      companyDescription: 'Brightwater Analytics builds acoustic sensors.',
      email: 'sales@brightwater.example',
    });
    pitch.resolve({ body: { pitch: 'Hmm. Acoustic sensors, <i>Brightwater Analytics</i> builds.\nStrong with leaks, they are.' } });

    expect(await screen.findByRole('heading', { name: 'Your pitch, in the voice of Yoda' })).toBeInTheDocument();
    expect(screen.getByText(/Acoustic sensors, <i>Brightwater Analytics<\/i> builds\./)).toBeInTheDocument();
    expect(document.querySelector('i')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(shell.navigator.reload).toHaveBeenCalledTimes(1);
  });

  it("shows the server's message and returns to the filled form on 'Try again'", async () => {
    const user = userEvent.setup();
    const shell = testShell({
      routes: {
        'POST /api/pitcher/page-summarization/': { status: 422, body: { status: 'error', message: 'There is not enough text on that page to summarise.' } },
      },
    });
    renderInShell(<HalPage />, shell, '/hal');
    await fillAll(user);
    await user.click(screen.getByRole('button', { name: 'Write my pitch' }));
    expect(await screen.findByText('There is not enough text on that page to summarise.')).toBeInTheDocument();
    expect(shell.fetch.calls).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByLabelText(/Company name/)).toHaveValue('Brightwater Analytics');
    expect(screen.getByLabelText(/Voice/)).toHaveValue('Yoda');
  });
});
