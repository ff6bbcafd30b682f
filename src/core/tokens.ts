/**
 * DI tokens. Each token is a Symbol with an interface of the same name where one exists
 * (Theia style), so `container.get<Foo>(Foo)` reads naturally and tests rebind by token.
 */
export const EventBus = Symbol('EventBus');
export const PluginManifest = Symbol('PluginManifest');
export const PluginRegistry = Symbol('PluginRegistry');
export const Environment = Symbol('Environment');
export const Storage = Symbol('Storage');
export const SessionStorage = Symbol('SessionStorage');
export const Clock = Symbol('Clock');
export const ApiClient = Symbol('ApiClient');
export const Session = Symbol('Session');
export const Breadcrumbs = Symbol('Breadcrumbs');
export const Navigator = Symbol('Navigator');
export const Logger = Symbol('Logger');
