import { useEffect, useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { token } from '../../../src/core';
import { useApi, useService } from '../../../src/app';
import { fake, renderInShell } from '../../../src/app/testing';

/** A plugin's own service, as a plugin declares it (services: [provide(Greeter, ...)]). */
interface GreeterService {
  greet(name: string): string;
  farewell(name: string): string;
}
const Greeter = token<GreeterService>('test-kit.greeter');

function ItemsView({ workflowId }: { workflowId: number }) {
  const api = useApi();
  const greeter = useService(Greeter);
  const [items, setItems] = useState<string[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api.get<{ items: string[] }>(`/api/plugins/test-kit/items?workflow=${workflowId}`).then(
      (r) => setItems(r.items),
      (e: Error) => setError(e.message),
    );
  }, [api, workflowId]);
  return (
    <section>
      <h1>{greeter.greet('Ada')}</h1>
      {items && (
        <ul>
          {items.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
      {error && <p role="alert">{error}</p>}
      <button onClick={() => api.post('/api/plugins/test-kit/items', { name: 'third' }).then((r) => setItems((r as { items: string[] }).items))}>Add</button>
      <button
        onClick={() => {
          try {
            greeter.farewell('Ada');
          } catch (e) {
            setError((e as Error).message);
          }
        }}
      >
        Leave
      </button>
    </section>
  );
}

describe('the testing face of the browser shell (src/app/testing)', () => {
  it('renders a view in the shell with a fake API and a typed partial fake of a service, logged in', async () => {
    const view = renderInShell(<ItemsView workflowId={900001} />, {
      path: '/workflow/900001',
      routes: {
        'GET /api/plugins/test-kit/items': { body: { items: ['first', 'second'] } },
        'POST /api/plugins/test-kit/items': (call) => ({ body: { items: ['first', 'second', (call.body as { name: string }).name] } }),
      },
      fakes: [fake(Greeter, { greet: (name) => `Hello, ${name}` })],
    });
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Hello, Ada');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['first', 'second']);
    expect(screen.getByTestId('location').textContent).toBe('/workflow/900001');

    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('third')).toBeInTheDocument();
    expect(view.shell.fetch.calls.map((c) => [c.method, c.path, c.headers.Authorization, c.body])).toEqual([
      ['GET', '/api/plugins/test-kit/items?workflow=900001', 'Bearer test-access', undefined],
      ['POST', '/api/plugins/test-kit/items', 'Bearer test-access', { name: 'third' }],
    ]);

    // a member the fake was not given fails, naming it
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The fake for test-kit.greeter has no "farewell"');
  });

  it('answers an unrouted call with a 404 the view shows as the server would', async () => {
    renderInShell(<ItemsView workflowId={900002} />, { fakes: [fake(Greeter, { greet: () => 'Hi' })] });
    expect((await screen.findByRole('alert')).textContent).toBe('Not found.');
  });
});
