import { definePlugin } from '../../src/app';
import { CONNECTORS } from '../../src/core';
import {
  flowmaticAiIcon,
  googleDriveIcon,
  googleSheetsIcon,
  manualEmailIcon,
  manualUploadIcon,
  xeroIcon,
} from './icons';

/**
 * The connectors a combination can use (spec section 3, Connector.provider). The three OAuth
 * providers need authorisation; manual upload, e-mail and the AI step do not.
 * The connection widget (/connections/widget?token=…, opened by the setup screens with the
 * workatoToken) and the page the Connect popup ends on (/connections/done).
 */
export default definePlugin({
  id: 'connectors',
  routes: [
    { path: '/connections/widget', access: 'public', title: 'Connections', view: { load: () => import('./ConnectionsWidget') } },
    { path: '/connections/done', access: 'public', title: 'Connection', view: { load: () => import('./ConnectDonePage') } },
  ],
  connectors: [
    { ...CONNECTORS.google_drive, icon: googleDriveIcon },
    { ...CONNECTORS.google_sheets, icon: googleSheetsIcon },
    { ...CONNECTORS.xero, icon: xeroIcon },
    { ...CONNECTORS.manual_upload, icon: manualUploadIcon },
    { ...CONNECTORS.manual_email, icon: manualEmailIcon },
    { ...CONNECTORS.flowmatic_ai, icon: flowmaticAiIcon },
  ],
});
