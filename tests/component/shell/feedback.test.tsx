import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FeedbackTab } from '../../../src/app/layout/FeedbackTab';
import { renderInShell, testShell } from '../../support/render';

describe('the Feedback tab', () => {
  it('sends the text with the current page and thanks the user', async () => {
    const shell = testShell({
      loggedIn: true,
      routes: { 'POST /api/platform/feedback': { status: 201, body: { status: 'success', message: 'Thank you for your feedback!' } } },
    });
    renderInShell(<FeedbackTab />, shell, '/solutions');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Feedback' }));
    const send = await screen.findByRole('button', { name: 'Send feedback' });
    expect(send).toBeDisabled();
    await user.type(screen.getByLabelText('Your feedback'), 'More connectors please');
    await user.click(send);
    expect(await screen.findByText('Thank you for your feedback!')).toBeInTheDocument();
    const call = shell.fetch.calls.find((c) => c.path === '/api/platform/feedback');
    expect(call?.body).toEqual({ message: 'More connectors please', page: '/solutions' });
    expect(call?.headers.Authorization).toBe('Bearer test-access');
  });

  it("shows the server's message when sending fails and keeps the text", async () => {
    const shell = testShell({
      loggedIn: true,
      routes: { 'POST /api/platform/feedback': { status: 429, body: { status: 'error', message: 'Too many attempts. Please wait a minute and try again.' } } },
    });
    renderInShell(<FeedbackTab />, shell, '/home');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Feedback' }));
    await user.type(await screen.findByLabelText('Your feedback'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Too many attempts. Please wait a minute and try again.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Your feedback')).toHaveValue('Hello'));
  });
});
