import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Breadcrumb, BreadcrumbButton, BreadcrumbDivider, BreadcrumbItem, FluentProvider, webLightTheme } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { TabBreadcrumb } from '../../../src/app/layout/TabBreadcrumb';

// issue 7 ('Speed'): the trail's Breadcrumb without Fluent's arrow-key hook, so Tabster is not
// part of every signed-in first load; it must be Fluent's Breadcrumb in tab mode, markup for markup

function crumbs(): ReactNode {
  return (
    <>
      <BreadcrumbItem>
        <BreadcrumbButton href="/home">Home</BreadcrumbButton>
      </BreadcrumbItem>
      <BreadcrumbDivider />
      <BreadcrumbItem>
        <BreadcrumbButton current>My Account</BreadcrumbButton>
      </BreadcrumbItem>
    </>
  );
}

function markupOf(node: ReactNode): string {
  const { container, unmount } = render(<FluentProvider theme={webLightTheme}>{node}</FluentProvider>);
  // Fluent's provider ids differ between renders
  const html = container.innerHTML.replace(/fui-FluentProvider_r_[a-z0-9]+_/g, 'provider');
  unmount();
  return html;
}

describe('TabBreadcrumb', () => {
  it("renders what Fluent's Breadcrumb renders in its default tab focus mode, for each size", () => {
    for (const size of ['small', 'medium', 'large'] as const) {
      expect(
        markupOf(
          <TabBreadcrumb aria-label="Breadcrumb" size={size} className="trail">
            {crumbs()}
          </TabBreadcrumb>,
        ),
      ).toBe(
        markupOf(
          <Breadcrumb aria-label="Breadcrumb" size={size} className="trail" focusMode="tab">
            {crumbs()}
          </Breadcrumb>,
        ),
      );
    }
  });

  it('is a labelled navigation landmark whose crumbs are each a Tab stop', async () => {
    render(
      <FluentProvider theme={webLightTheme}>
        <TabBreadcrumb aria-label="Breadcrumb">{crumbs()}</TabBreadcrumb>
      </FluentProvider>,
    );
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'My Account' })).toHaveFocus();
  });
});
