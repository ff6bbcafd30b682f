import type { AuthorisationRule } from '../../src/core';
import type { ProviderConnection } from '../../src/core';

const connected = (connections: ProviderConnection[], ...providers: string[]) =>
  connections.some((c) => providers.includes(c.provider) && c.authorization_status === 'success');

/** Spec section 4, Authorisation: the invoice-extraction combinations 1, 8 and 9. */
export const invoiceExtractionRules: AuthorisationRule[] = [
  {
    // Google Drive / Google Sheets trigger: either connection will do; counts 2 active connections.
    combinationId: 1,
    isAuthorised: (connections) => connected(connections, 'google_drive', 'google_sheets'),
    activeConnectionsWeight: 2,
  },
  {
    // manual upload: nothing to connect
    combinationId: 8,
    isAuthorised: () => true,
    activeConnectionsWeight: 0,
  },
  {
    // Xero: needs a successful xero connection; counts 1 active connection.
    combinationId: 9,
    isAuthorised: (connections) => connected(connections, 'xero'),
    activeConnectionsWeight: 1,
  },
];
