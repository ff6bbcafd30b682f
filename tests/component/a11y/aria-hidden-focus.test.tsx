import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import MiaPage, { LOADING_TEXT } from '../../../plugins/public-generators/MiaPage';
import { renderInShell, testShell } from '../../support/render';
import CombinationSetupPage from '../../../src/app/pages/CombinationSetupPage';
import { renderRoute } from '../catalogue/harness';
import { job, setupShell } from '../automation-views/harness';

/**
 * axe-core's aria-hidden-focus rule alone: the targets of focusable elements inside an aria-hidden
 * region. Without layout (jsdom) axe cannot always tell whether such an element is visible and
 * reports it 'incomplete' instead of a violation, so both count here.
 */
async function ariaHiddenFocus(): Promise<string[]> {
  const result = await axe.run({ include: [document], exclude: [['[data-tabster-dummy]']] } as unknown as axe.ElementContext, {
    runOnly: { type: 'rule', values: ['aria-hidden-focus'] },
  });
  return [...result.violations, ...result.incomplete].flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
}

describe("axe's aria-hidden-focus (issue 25: a focusable element inside an aria-hidden region)", () => {
  it('/mia: while the form fades out it is hidden and none of its fields or buttons can take focus', async () => {
    const user = userEvent.setup();
    const never = new Promise<never>(() => undefined);
    const shell = testShell({ routes: { 'POST /api/platform/send_to_mia': () => never } });
    renderInShell(<MiaPage />, shell, '/mia');
    expect(await ariaHiddenFocus()).toEqual([]);
    await user.type(screen.getByLabelText('Company name'), 'Brightwater Analytics');
    await user.type(screen.getByLabelText('Email'), 'press@brightwater.example');
    await user.type(screen.getByLabelText('Website URL'), 'brightwater.example');
    await user.type(screen.getByLabelText('Product name'), 'LeakFinder');
    await user.click(screen.getByRole('button', { name: 'Write my press release' }));

    // the fading form: still in the page, hidden from assistive technology and out of the tab order
    const form = document.querySelector('form[aria-label="Press release details"]') as HTMLFormElement;
    expect(form).not.toBeNull();
    expect(form).toHaveAttribute('aria-hidden', 'true');
    expect(await ariaHiddenFocus()).toEqual([]);
    expect(form).toHaveAttribute('inert');
    expect(await screen.findByText(LOADING_TEXT)).toBeInTheDocument();
  });
});

describe('aria-hidden-focus on signed-in screens', () => {
  it('the setup screen with its job view holds nothing focusable in an aria-hidden region', async () => {
    const shell = setupShell({ combinationId: 8, status: 'complete', running: true, jobs: [job('j-1')] });
    renderRoute(shell, '/solutions/combinations/workflow/:id', <CombinationSetupPage />, '/solutions/combinations/workflow/8');
    await screen.findByRole('group', { name: 'Recipe details' });
    await screen.findByRole('switch');
    expect(await ariaHiddenFocus()).toEqual([]);
  });
});
