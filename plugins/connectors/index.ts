import { clientConnector, definePlugin } from '../../src/app';
import { DECLARED_CONNECTORS } from './declarations';

/**
 * The connectors a combination can use (spec section 3, Connector.provider), from this plugin's
 * declarations (declarations.ts, shared with server.ts): the three OAuth providers need
 * authorisation; manual upload, e-mail and the AI step do not.
 * The connection widget (/connections/widget?token=…, opened by the setup screens with the
 * workatoToken) and the page the Connect popup ends on (/connections/done).
 */
export default definePlugin({
  id: 'connectors',
  routes: [
    { path: '/connections/widget', access: 'public', title: 'Connections', view: { load: () => import('./ConnectionsWidget') } },
    { path: '/connections/done', access: 'public', title: 'Connection', view: { load: () => import('./ConnectDonePage') } },
  ],
  connectors: DECLARED_CONNECTORS.map(clientConnector),
});
