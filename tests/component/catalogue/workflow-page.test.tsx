import { screen } from '@testing-library/react';
import * as T from '../../../src/app/tokens';
import WorkflowPage, { NOTHING_FOUND } from '../../../src/app/pages/WorkflowPage';
import { definePlugin, type WorkflowViewProps } from '../../../src/app/plugin';
import type { Breadcrumbs } from '../../../src/app/services/breadcrumbs';
import { catalogueShell, renderRoute, workflow } from './harness';

function FakeInvoiceView({ workflowId }: WorkflowViewProps) {
  return <p>fake invoice view for {workflowId}</p>;
}

const fakePlugin = definePlugin({
  id: 'fake-workflows',
  workflowViews: { 10004: { load: async () => ({ default: FakeInvoiceView }) } },
});

function setup(id: number) {
  const shell = catalogueShell(
    {
      [`GET /api/platform/workflows/${id}/`]: { body: workflow(id, { name: `Workflow ${id}`, descrption: `What ${id} does` }) },
    },
    [fakePlugin],
  );
  renderRoute(shell, '/workflow/:id', <WorkflowPage />, `/workflow/${id}`);
  return shell;
}

describe('/workflow/{id}', () => {
  it("shows the workflow's title and description and the plugin's view for its id", async () => {
    const shell = setup(10004);
    expect(await screen.findByText('fake invoice view for 10004')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Workflow 10004', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('What 10004 does')).toBeInTheDocument();
    expect(screen.queryByText(NOTHING_FOUND)).not.toBeInTheDocument();
    expect(shell.container.get<Breadcrumbs>(T.Breadcrumbs).trail.map((c) => c.label)).toEqual(['Home', 'Workflow 10004']);
  });

  it("shows 'Oops, nothing found here sorry.' for an id no plugin registered", async () => {
    setup(10099);
    expect(await screen.findByText(NOTHING_FOUND)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Workflow 10099', level: 1 })).toBeInTheDocument();
  });

  it("shows 'Oops' when the workflow does not exist either", async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const shell = catalogueShell({}, [fakePlugin]);
    renderRoute(shell, '/workflow/:id', <WorkflowPage />, '/workflow/424242');
    expect(await screen.findByText(NOTHING_FOUND)).toBeInTheDocument();
    log.mockRestore();
  });

  it('renders the real views of the workflow plugins', async () => {
    const { default: invoiceExtraction } = await import('../../../plugins/invoice-extraction');
    const shell = catalogueShell({ 'GET /api/platform/workflows/10004/': { body: workflow(10004, { name: 'Invoice Data Extraction' }) } }, [invoiceExtraction]);
    renderRoute(shell, '/workflow/:id', <WorkflowPage />, '/workflow/10004');
    // workflow 10004 has its real page now (issue 10): the spec's 'Upload Invoice' and 'Process Invoice'
    expect(await screen.findByRole('button', { name: 'Upload Invoice' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Process Invoice' })).toBeInTheDocument();
  });
});
