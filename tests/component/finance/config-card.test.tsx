import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { ConfigCard, type SavedConfig } from '../../../src/app';
import SCHEMA from '../../../schemas/financial-analysis/config.schema.json';

interface Config {
  SELECTED_FOCUS_AREA?: string;
}

const SAVED = { SELECTED_FOCUS_AREA: 'sales-and-income' };

function savedConfig(over: Partial<SavedConfig<Config>> = {}): SavedConfig<Config> {
  return { status: 'ready', saved: SAVED, id: 1, saving: false, justSaved: false, save: jest.fn(async () => true), isDirty: () => false, ...over };
}

function renderCard(props: Partial<Parameters<typeof ConfigCard<Config>>[0]> & { config: SavedConfig<Config> }) {
  const ui = (p: typeof props) => (
    <FluentProvider theme={webLightTheme}>
      <ConfigCard<Config> schema={SCHEMA} idPrefix="test" onChange={() => undefined} actions={[]} {...p} />
    </FluentProvider>
  );
  const view = render(ui(props));
  return { ...view, update: (p: typeof props) => view.rerender(ui(p)) };
}

describe('ConfigCard (the shared Config card of the combination views)', () => {
  it('shows the loading and the load-failure states instead of the form', () => {
    const { update } = renderCard({ config: savedConfig({ status: 'loading', saved: undefined }) });
    expect(screen.getByText('Loading your config...')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save config' })).toBeNull();
    update({ config: savedConfig({ status: 'error', saved: undefined, error: 'The server is not answering.' }) });
    expect(screen.getByText('The server is not answering.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save config' })).toBeNull();
  });

  it('saves through the saved config and reports the save to the view only when it worked', async () => {
    const user = userEvent.setup();
    const onSaved = jest.fn();
    const save = jest.fn(async () => false);
    const { update } = renderCard({ config: savedConfig({ save }), onSaved });
    await user.click(await screen.findByRole('button', { name: 'Save config' }));
    await waitFor(() => expect(save).toHaveBeenCalledWith(SAVED));
    expect(onSaved).not.toHaveBeenCalled();
    const works = jest.fn(async () => true);
    update({ config: savedConfig({ save: works }), onSaved });
    await user.click(await screen.findByRole('button', { name: 'Save config' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(SAVED));
    update({ config: savedConfig({ justSaved: true, error: 'Saving failed: try again.' }), onSaved });
    expect(screen.getByText('Config Saved')).toBeInTheDocument();
    expect(screen.getByText('Saving failed: try again.')).toBeInTheDocument();
  });

  it('runs the latest handler of each action, keeps disabled ones disabled, and shows the hint, spinner and notice', async () => {
    const user = userEvent.setup();
    const first = jest.fn();
    const latest = jest.fn();
    const { update } = renderCard({
      config: savedConfig(),
      actions: [
        { label: 'Test', onClick: first },
        { label: 'Run', onClick: jest.fn(), disabled: true, primary: true },
      ],
      hint: 'Upload a file to run.',
    });
    expect(await screen.findByRole('button', { name: 'Run' })).toBeDisabled();
    expect(screen.getByText('Upload a file to run.')).toBeInTheDocument();
    update({
      config: savedConfig(),
      actions: [
        { label: 'Test', onClick: latest },
        { label: 'Run', onClick: jest.fn(), disabled: true, primary: true },
      ],
      busyLabel: 'Comparing...',
      notice: { intent: 'success', text: 'Workflow started.' },
    });
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect(latest).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
    expect(screen.getByText('Comparing...')).toBeInTheDocument();
    expect(screen.getByText('Workflow started.')).toBeInTheDocument();
  });
});
