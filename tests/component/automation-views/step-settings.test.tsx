import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StepDetail, type SelectedItem } from '../../../plugins/automation-views/StepDetail';
import { schemaForValues } from '../../../src/app/forms';
import { renderInShell, testShell } from '../../support/render';
import type { FakeCall } from '../../support/fake-fetch';

const item: SelectedItem = {
  group: 'action',
  title: 'Acme CRM',
  provider: 'acme_crm',
  steps: [
    {
      index: 1,
      kind: 'action',
      provider: 'acme_crm',
      action: 'add_contact',
      name: 'Add the contact',
      installed: true,
      auth: 'acme_crm',
      settings: {
        schema: {
          type: 'object',
          required: ['list', 'email'],
          properties: {
            list: { type: 'string', title: 'Contact list' },
            email: { type: 'string', title: 'E-mail', format: 'email' },
            score: { type: 'integer', title: 'Lead score' },
          },
        },
        values: { list: 'Newsletter', email: '{{email}}', score: 40 },
      },
    },
    { index: 2, kind: 'action', provider: 'acme_crm', action: 'tag_contact', name: 'Tag the contact', installed: true },
  ],
};

describe("a typed step's settings on the setup screen (issue 22)", () => {
  it('renders the settings schema with rjsf, read-only while the workflow runs, with the recipe values; a placeholder names the run field it takes', async () => {
    renderInShell(<StepDetail item={item} recipeId={7} running onQueued={() => undefined} />, testShell({ loggedIn: true }));
    const form = await screen.findByTestId('step-settings-1');
    const list = within(form).getByLabelText(/^Contact list/) as HTMLInputElement;
    const email = within(form).getByLabelText(/^E-mail/) as HTMLInputElement;
    const score = within(form).getByLabelText(/^Lead score/) as HTMLInputElement;
    expect([list.value, email.value, score.value]).toEqual(['Newsletter', '{{email}}', '40']);
    expect([list.readOnly, email.readOnly, score.readOnly]).toEqual([true, true, true]);
    expect(within(form).getByText('Filled from the run\'s "email" field.')).toBeInTheDocument();
    expect(within(form).queryByRole('button')).toBeNull();
    expect(within(form).getByText('Stop the workflow to change these settings.')).toBeInTheDocument();
    // a step without declared settings shows its name only
    expect(screen.queryByTestId('step-settings-2')).toBeNull();
    expect(screen.getByText('Tag the contact')).toBeInTheDocument();
  });

  it('shows a templated setting as text naming its fields, whatever its type', () => {
    expect(
      schemaForValues(
        { type: 'object', properties: { n: { type: 'integer', title: 'Count' }, s: { type: 'string' } } },
        { n: '{{a}}', s: '{{b}} and {{c.d}}' },
      ),
    ).toEqual({
      type: 'object',
      properties: {
        n: { type: 'string', title: 'Count', description: 'Filled from the run\'s "a" field.' },
        s: { type: 'string', title: 's', description: 'Filled from the run\'s "b" and "c.d" fields.' },
      },
    });
  });

  const SETTINGS = 'PUT /api/automation/recipes/7/steps/1/settings';

  it('while stopped, edits the settings with the keyboard and saves them: the exact values are sent and the save is confirmed', async () => {
    const user = userEvent.setup();
    const shell = testShell({
      loggedIn: true,
      routes: {
        [SETTINGS]: (call: FakeCall) => ({ body: { status: 'ok', settings: { schema: item.steps[0].settings!.schema, values: call.body } } }),
      },
    });
    renderInShell(<StepDetail item={item} recipeId={7} running={false} onQueued={() => undefined} />, shell);
    const form = await screen.findByTestId('step-settings-1');
    const list = within(form).getByLabelText(/^Contact list/) as HTMLInputElement;
    const score = within(form).getByLabelText(/^Lead score/) as HTMLInputElement;
    expect([list.readOnly, score.readOnly]).toEqual([false, false]);
    expect(within(form).queryByText('Stop the workflow to change these settings.')).toBeNull();

    // keyboard only: focus the list, replace it, tab on to the score, replace it, tab to the button and press Enter
    list.focus();
    await user.keyboard('{Control>}a{/Control}Customers');
    await user.tab();
    await user.tab();
    expect(score).toHaveFocus();
    await user.keyboard('{Control>}a{/Control}75');
    const save = within(form).getByRole('button', { name: 'Save settings' });
    while (document.activeElement !== save) await user.tab();
    await user.keyboard('{Enter}');

    expect(await within(form).findByText('Settings saved. The next run uses them.')).toBeInTheDocument();
    const puts = shell.fetch.calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => [c.path, c.body])).toEqual([['/api/automation/recipes/7/steps/1/settings', { list: 'Customers', email: '{{email}}', score: 75 }]]);
    expect([list.value, (within(form).getByLabelText(/^E-mail/) as HTMLInputElement).value, score.value]).toEqual(['Customers', '{{email}}', '75']);
  });

  it("shows the server's sentence under the form when it refuses the settings, and saves once they are corrected", async () => {
    const user = userEvent.setup();
    const shell = testShell({
      loggedIn: true,
      routes: {
        [SETTINGS]: (call: FakeCall) =>
          String((call.body as { list?: string }).list ?? '').length > 10
            ? { status: 400, body: { status: 'error', message: 'The contact list must be at most 10 characters long.', step: 1, field: 'list' } }
            : { body: { status: 'ok', settings: { schema: item.steps[0].settings!.schema, values: call.body } } },
      },
    });
    renderInShell(<StepDetail item={item} recipeId={7} running={false} onQueued={() => undefined} />, shell);
    const form = await screen.findByTestId('step-settings-1');
    const list = within(form).getByLabelText(/^Contact list/) as HTMLInputElement;
    await user.clear(list);
    await user.type(list, 'A very long list name');
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    const outcome = screen.getByTestId('step-settings-1-outcome');
    await waitFor(() => expect(outcome).toHaveTextContent('The contact list must be at most 10 characters long.'));
    expect(outcome).toHaveAttribute('aria-live', 'polite');
    expect(within(outcome).queryByText('Settings saved. The next run uses them.')).toBeNull();

    await user.clear(list);
    await user.type(list, 'Leads');
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(outcome).toHaveTextContent('Settings saved. The next run uses them.'));
    expect(outcome).not.toHaveTextContent('at most 10 characters');
    expect(shell.fetch.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { list: 'A very long list name', email: '{{email}}', score: 40 },
      { list: 'Leads', email: '{{email}}', score: 40 },
    ]);
  });
});
