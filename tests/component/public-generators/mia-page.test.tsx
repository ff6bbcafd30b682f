import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MiaPage, { FILL_ALL, LOADING_TEXT, type MiaReply } from '../../../plugins/public-generators/MiaPage';
import { renderInShell, testShell } from '../../support/render';
import type { FakeCall } from '../../support/fake-fetch';

const REPLY: MiaReply = {
  status: 'success',
  id: '6f1c1f55-3c52-4f59-8f53-3a3f7d3f0c11',
  title: 'Brightwater Analytics Launches LeakFinder',
  paraphrase_1: 'BRIGHTWATER\n\nVersion one with <b>markup</b> kept as text.',
  paraphrase_2: 'Version two, in other words.',
  log_image: 'http://localhost/api/plugins/public-generators/images/x/logo.png',
  image_1: 'http://localhost/api/plugins/public-generators/images/x/image-1.png',
  image_2: 'http://localhost/api/plugins/public-generators/images/x/image-2.png',
};

/** A reply the test releases when it wants, to see the loading view. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function fill(user: ReturnType<typeof userEvent.setup>, values: Partial<Record<'Company name' | 'Email' | 'Website URL' | 'Product name', string>>) {
  for (const [label, value] of Object.entries(values)) if (value) await user.type(screen.getByLabelText(label), value);
}

describe('/mia', () => {
  it(`shows '${FILL_ALL}' and sends nothing when company name, email and url are all empty`, async () => {
    const user = userEvent.setup();
    const shell = testShell();
    renderInShell(<MiaPage />, shell, '/mia');
    await fill(user, { 'Product name': 'LeakFinder' });
    await user.click(screen.getByRole('button', { name: 'Write my press release' }));
    expect(await screen.findByText(FILL_ALL)).toBeInTheDocument();
    expect(shell.fetch.calls).toHaveLength(0);
  });

  it('fades the form out, shows a loading view until the reply, asks for the e-mail and shows the release as text', async () => {
    const user = userEvent.setup();
    const reply = deferred<{ body: MiaReply }>();
    const shell = testShell({
      routes: {
        'POST /api/platform/send_to_mia': () => reply.promise,
        'POST /api/platform/apiEmailByMia': { body: { status: 'success', message: 'The press release is on its way to press@brightwater.example.' } },
      },
    });
    renderInShell(<MiaPage />, shell, '/mia');
    await fill(user, {
      'Company name': 'Brightwater Analytics',
      Email: 'press@brightwater.example',
      'Website URL': 'brightwater.example',
      'Product name': 'LeakFinder',
    });
    await user.click(screen.getByRole('button', { name: 'Write my press release' }));

    expect(await screen.findByText(LOADING_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Press release details' })).not.toBeInTheDocument();
    const sent = shell.fetch.calls.find((c) => c.path === '/api/platform/send_to_mia') as FakeCall;
    expect(sent.body).toEqual({ email: 'press@brightwater.example', name: 'Brightwater Analytics', url: 'brightwater.example', product_name: 'LeakFinder' });
    expect(sent.headers.Authorization).toBeUndefined();

    reply.resolve({ body: REPLY });
    expect(await screen.findByRole('heading', { name: REPLY.title, level: 2 })).toBeInTheDocument();
    expect(screen.queryByText(LOADING_TEXT)).not.toBeInTheDocument();
    // text, never HTML
    expect(screen.getByText(/Version one with <b>markup<\/b> kept as text\./)).toBeInTheDocument();
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByText('Version two, in other words.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Logo of Brightwater Analytics' })).toHaveAttribute('src', REPLY.log_image);
    expect(screen.getByRole('img', { name: `Image 1 for the press release: ${REPLY.title}` })).toHaveAttribute('src', REPLY.image_1);
    expect(screen.getByRole('img', { name: 'Image 2 for the press release: LeakFinder by Brightwater Analytics' })).toHaveAttribute('src', REPLY.image_2);

    expect(await screen.findByText('The press release is on its way to press@brightwater.example.')).toBeInTheDocument();
    const mail = shell.fetch.calls.find((c) => c.path === '/api/platform/apiEmailByMia') as FakeCall;
    const form = mail.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(Object.fromEntries(form.entries())).toEqual({
      template_id: '14',
      email: 'press@brightwater.example',
      name: 'Brightwater Analytics',
      url: 'brightwater.example',
      product_name: 'LeakFinder',
      id: REPLY.id,
    });

    await user.click(screen.getByRole('button', { name: 'Write another press release' }));
    expect(screen.getByLabelText('Company name')).toHaveValue('');
  });

  it('sends when only the url is given (only the all-empty case is checked), and asks for no e-mail without an address', async () => {
    const user = userEvent.setup();
    const shell = testShell({ routes: { 'POST /api/platform/send_to_mia': { body: REPLY } } });
    renderInShell(<MiaPage />, shell, '/mia');
    await fill(user, { 'Website URL': 'https://brightwater.example' });
    await user.click(screen.getByRole('button', { name: 'Write my press release' }));
    expect(await screen.findByRole('heading', { name: REPLY.title })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Logo of your company' })).toBeInTheDocument();
    expect(shell.fetch.calls.map((c) => c.path)).toEqual(['/api/platform/send_to_mia']);
  });

  it("shows the server's message and lets the user try again with the same values", async () => {
    const user = userEvent.setup();
    const shell = testShell({
      routes: {
        'POST /api/platform/send_to_mia': { status: 400, body: { status: 'error', message: 'That address points to a private network and cannot be read.' } },
      },
    });
    renderInShell(<MiaPage />, shell, '/mia');
    await fill(user, { 'Company name': 'Acme', 'Website URL': 'http://10.0.0.1' });
    await user.click(screen.getByRole('button', { name: 'Write my press release' }));
    expect(await screen.findByText('That address points to a private network and cannot be read.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByLabelText('Website URL')).toHaveValue('http://10.0.0.1');
    expect(screen.getByLabelText('Company name')).toHaveValue('Acme');
  });

  it('still shows the release when the e-mail is refused, with the reason', async () => {
    const user = userEvent.setup();
    const shell = testShell({
      routes: {
        'POST /api/platform/send_to_mia': { body: REPLY },
        'POST /api/platform/apiEmailByMia': {
          status: 429,
          body: { status: 'error', message: 'This address has already received 3 press releases today. Please try again tomorrow.' },
        },
      },
    });
    renderInShell(<MiaPage />, shell, '/mia');
    await fill(user, { Email: 'a@b.co', 'Website URL': 'b.co' });
    await user.click(screen.getByRole('button', { name: 'Write my press release' }));
    expect(await screen.findByRole('heading', { name: REPLY.title })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(/The e-mail was not sent: This address has already received 3 press releases today/)).toBeInTheDocument());
  });
});
