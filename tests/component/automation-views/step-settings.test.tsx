import { screen, within } from '@testing-library/react';
import { StepDetail, type SelectedItem } from '../../../plugins/automation-views/StepDetail';
import { schemaForValues } from '../../../src/app/forms';
import { renderInShell, testShell } from '../../support/render';

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
  it('renders the settings schema with rjsf, read-only, with the recipe values; a placeholder names the run field it takes', async () => {
    renderInShell(<StepDetail item={item} recipeId={7} running={false} onQueued={() => undefined} />, testShell({ loggedIn: true }));
    const form = await screen.findByTestId('step-settings-1');
    const list = within(form).getByLabelText(/^Contact list/) as HTMLInputElement;
    const email = within(form).getByLabelText(/^E-mail/) as HTMLInputElement;
    const score = within(form).getByLabelText(/^Lead score/) as HTMLInputElement;
    expect([list.value, email.value, score.value]).toEqual(['Newsletter', '{{email}}', '40']);
    expect([list.readOnly, email.readOnly, score.readOnly]).toEqual([true, true, true]);
    expect(within(form).getByText('Filled from the run\'s "email" field.')).toBeInTheDocument();
    expect(within(form).queryByRole('button')).toBeNull();
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
});
