import { render, screen } from '@testing-library/react';
import { FluentProvider, makeStyles, webLightTheme } from '@fluentui/react-components';
import { Panel } from '../../../src/app/components/Panel';

// issue 7 ('Speed'): Panel stands in for Fluent's Card where a Card is only a surface

const useStyles = makeStyles({ card: { display: 'grid', padding: '16px' } });

let callerClass = '';
function Labelled() {
  const s = useStyles();
  callerClass = s.card;
  return (
    <Panel className={s.card} aria-labelledby="t" data-testid="panel">
      <h3 id="t">Recipe details</h3>
      <p>Not running</p>
    </Panel>
  );
}

describe('Panel', () => {
  it('is a group named by its heading, as the Card was, with the caller’s class merged in', () => {
    render(
      <FluentProvider theme={webLightTheme}>
        <Labelled />
      </FluentProvider>,
    );
    const panel = screen.getByRole('group', { name: 'Recipe details' });
    expect(panel).toBe(screen.getByTestId('panel'));
    expect(panel.tagName).toBe('DIV');
    // its own surface class (a reset class, which atomic classes override) and every class of the
    // caller's (display: grid, padding: 16px) merged in
    const own = panel.className.split(' ');
    for (const c of callerClass.split(' ').filter((x) => /^f/.test(x))) expect(own).toContain(c);
    expect(own.some((c) => /^r/.test(c))).toBe(true);
    expect(panel).toHaveTextContent('Not running');
    // no Card code: no tabster focus attributes, no tab stop
    expect(panel).not.toHaveAttribute('tabindex');
    expect(panel).not.toHaveAttribute('data-tabster');
  });

  it('takes another role', () => {
    render(<Panel role="region" aria-label="Files" />);
    expect(screen.getByRole('region', { name: 'Files' })).toBeInTheDocument();
  });
});
