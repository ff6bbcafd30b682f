/** DI tokens of the server container. */
export const ServerConfig = Symbol('ServerConfig');
export const Db = Symbol('Db');
export const Mailer = Symbol('Mailer');
export const JobQueue = Symbol('JobQueue');
export const TokenService = Symbol('TokenService');
export const PasswordHasher = Symbol('PasswordHasher');
export const Logger = Symbol('Logger');
export const ServerPlugins = Symbol('ServerPlugins');
export const Clock = Symbol('Clock');
