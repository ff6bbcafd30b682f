import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LazyTooltip } from '../../../src/app/components/LazyTooltip';
import { BreadcrumbTrail } from '../../../src/app/layout/BreadcrumbTrail';
import { MemoryStorage } from '../../../src/app/services/storage';
import { renderInShell, testShell } from '../../support/render';

// issue 7 ('Speed'): the tooltip and the breadcrumb's overflow menu are chunks loaded on first use;
// before that the trigger already reads the same to assistive technology

describe('LazyTooltip', () => {
  it('describes its trigger before the Tooltip has loaded, then shows it on hover', async () => {
    renderInShell(
      <LazyTooltip content="The platform is in Beta." relationship="description" withArrow>
        <span tabIndex={0} role="note" aria-label="Beta">
          Beta
        </span>
      </LazyTooltip>,
      testShell(),
    );
    const badge = screen.getByRole('note', { name: 'Beta' });
    expect(badge).toHaveAccessibleDescription('The platform is in Beta.');
    fireEvent.pointerEnter(badge);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('The platform is in Beta.');
    expect(screen.getByRole('note', { name: 'Beta' })).toHaveAccessibleDescription('The platform is in Beta.');
  });

  it('names its trigger with a label tooltip, and keeps the focus across the swap', async () => {
    renderInShell(
      <LazyTooltip content="Google Drive" relationship="label">
        <span tabIndex={0} role="img">
          G
        </span>
      </LazyTooltip>,
      testShell(),
    );
    const user = userEvent.setup();
    await user.tab();
    await waitFor(() => expect(screen.getByRole('img', { name: 'Google Drive' })).toHaveFocus());
    // the swapped-in trigger is a new element: it has the focus and the tooltip shows
    await screen.findByRole('tooltip', { hidden: true });
    await waitFor(() => expect(screen.getByRole('img', { name: 'Google Drive' })).toHaveFocus());
  });
});

describe("the breadcrumb's overflow menu", () => {
  it('loads on the first click of the … crumb and lists the hidden crumbs', async () => {
    const trail = ['Home', 'Solutions', 'Finance', 'Workflow A', 'Workflow B', 'Workflow C', 'Workflow D'].map((label, i) => ({
      label,
      path: i === 0 ? '/home' : `/p/${i}`,
    }));
    const sessionStorage = new MemoryStorage();
    sessionStorage.setItem('breadcrumbs', JSON.stringify(trail));
    renderInShell(<BreadcrumbTrail />, testShell({ loggedIn: true, sessionStorage }), '/p/6');
    const more = screen.getByRole('button', { name: '3 more breadcrumb items' });
    expect(more).toHaveAttribute('aria-haspopup', 'menu');
    const user = userEvent.setup();
    await act(async () => {
      await user.click(more);
    });
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Solutions', 'Finance', 'Workflow A']);
  });
});
