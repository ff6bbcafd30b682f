import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Server configuration, read from environment variables with safe local defaults and
 * validated at start-up. Every variable is documented in the README's configuration table.
 */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  secretKey: string;
  logLevel: string;
  /** Login and registration attempts allowed per client address per minute. */
  authRateLimit: number;
  /** Folder with the built client (index.html); absent in API-only tests. */
  clientDir: string | undefined;
  /** Folder with plugin folders (each may have a server.ts). */
  pluginsDir: string;
  /** Largest accepted upload in bytes. */
  maxUploadBytes: number;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function urlVar(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL (${protocols.join(', ')}), got "${raw}"`);
  }
  if (!protocols.includes(url.protocol.replace(/:$/, ''))) {
    throw new ConfigError(name, `must use one of ${protocols.join(', ')}, got "${url.protocol}"`);
  }
  return raw;
}

/** Reads SECRET_KEY, or the key generated into DATA_DIR on first start. */
function secretKey(env: Env, dataDir: string): string {
  const given = env.SECRET_KEY;
  if (given !== undefined && given !== '') {
    if (given.length < 32) throw new ConfigError('SECRET_KEY', 'must be at least 32 characters');
    return given;
  }
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): ServerConfig {
  const port = intVar(env, 'PORT', 3000, 0, 65535);
  const dataDir = path.resolve(cwd, env.DATA_DIR || './data');
  const publicUrl = urlVar(env, 'PUBLIC_URL', ['http', 'https']) ?? `http://localhost:${port}`;
  const clientDir = path.resolve(cwd, env.CLIENT_DIR || './dist');
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    smtpUrl: urlVar(env, 'SMTP_URL', ['smtp', 'smtps']),
    mailFrom: env.MAIL_FROM || 'Automation Platform <no-reply@localhost>',
    databaseUrl: urlVar(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    redisUrl: urlVar(env, 'REDIS_URL', ['redis', 'rediss']),
    secretKey: secretKey(env, dataDir),
    logLevel: env.LOG_LEVEL || 'info',
    authRateLimit: intVar(env, 'AUTH_RATE_LIMIT', 20, 1, 100000),
    clientDir: existsSync(path.join(clientDir, 'index.html')) ? clientDir : undefined,
    pluginsDir: path.resolve(cwd, env.PLUGINS_DIR || './plugins'),
    maxUploadBytes: intVar(env, 'MAX_UPLOAD_MB', 10, 1, 1024) * 1024 * 1024,
  };
}
