import { token } from '../core/di';
import type { ApiClient as ApiClientService } from './services/api-client';
import type { Breadcrumbs as BreadcrumbsService } from './services/breadcrumbs';
import type { Http as HttpService } from './services/http';
import type { PageNavigator } from './services/navigator';
import type { Session as SessionService } from './services/session';
import type { KeyValueStorage } from './services/storage';
import type { ClientPlugin, ClientPluginRegistry } from './plugin';

/** The browser shell's tokens, each carrying its service's type, plus the shared ones. */
export * from '../core/tokens';
export const PluginManifest = token<ClientPlugin>('PluginManifest');
export const PluginRegistry = token<ClientPluginRegistry>('PluginRegistry');
export const Storage = token<KeyValueStorage>('Storage');
export const SessionStorage = token<KeyValueStorage>('SessionStorage');
export const Http = token<HttpService>('Http');
export const ApiClient = token<ApiClientService>('ApiClient');
export const Session = token<SessionService>('Session');
export const Breadcrumbs = token<BreadcrumbsService>('Breadcrumbs');
export const Navigator = token<PageNavigator>('Navigator');
