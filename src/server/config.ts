import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';

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
  /** REDIS_PREFIX: begins every Redis key and channel of this deployment (queues, rate limits, cache bridge). */
  redisPrefix: string;
  secretKey: string;
  logLevel: string;
  /** Login and registration attempts allowed per client address per minute. */
  authRateLimit: number;
  /**
   * Which proxies in front of the server are trusted to set X-Forwarded-For: false (none), a hop
   * count (1 = the one proxy that connects to us), or a list of proxy addresses / CIDR ranges.
   * Never "every hop": that lets any client pick its own address and dodge per-address limits.
   */
  trustProxy: false | number | string[];
  /** Writes (POST/PUT/PATCH/DELETE) one account may make per minute on a route. */
  writeRateLimitPerUser: number;
  /** Writes one client address may make per minute on a route (anonymous and signed-in alike). */
  writeRateLimitPerAddress: number;
  /** NODE_ENV=production: stricter headers, no source maps unless SERVE_SOURCE_MAPS=true. */
  production: boolean;
  /** Serve the client's *.map files (always outside production; in production only when asked). */
  serveSourceMaps: boolean;
  /** Script hosts the Content-Security-Policy allows (the analytics scripts, production only). */
  cspScriptHosts: string[];
  /** Folder with the built client (index.html); absent in API-only tests. */
  clientDir: string | undefined;
  /** Folder with plugin folders (each may have a server.ts). */
  pluginsDir: string;
  /** Largest accepted upload in bytes. */
  maxUploadBytes: number;
  /** OpenAI-compatible chat endpoint for text generation; unset: the built-in templates. */
  llmBaseUrl: string | undefined;
  llmApiKey: string | undefined;
  llmModel: string | undefined;
  /** Test-only: lets the website reader fetch loopback addresses (a local fixture site). */
  webFetchAllowLoopback: boolean;
  /** Automation jobs one user may have running at once (more wait their turn). */
  engineUserConcurrency: number;
  /** Time-out of one automation step, ms. */
  engineStepTimeoutMs: number;
  /** Time-out of one AI step (provider flowmatic_ai), ms. */
  engineAiStepTimeoutMs: number;
  /** Calls one recipe's webhook accepts per minute. */
  webhookRateLimit: number;
  /** Port of the inbound SMTP listener (manual_email trigger); 0 disables it. */
  inboundSmtpPort: number;
  inboundSmtpHost: string;
  /** Recipes receive mail at recipe-<id>@this domain. */
  inboundMailDomain: string;
  /** Where a successful recipe start is announced (a chat incoming webhook); unset: not announced. */
  chatWebhookUrl: string | undefined;
  /** Earlier SECRET_KEY values (PREVIOUS_SECRET_KEYS, comma-separated): stored connection tokens sealed with them stay readable. */
  previousSecretKeys: string[];
  /**
   * The environment this configuration was read from. A plugin reads its own variables here
   * (the connectors' OAuth apps, SANDBOX_PROVIDERS, DRIVE_POLL_INTERVAL_MS) with the helpers
   * below, so a test's environment reaches it as it reaches the core.
   */
  env: Readonly<Env>;
  /** METRICS_TOKEN: when set, GET /metrics wants `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** RUN_JOBS (default true): false makes a web server that enqueues jobs but runs none (workers run them). */
  runJobs: boolean;
  /** WORKER_PORT: where `npm run worker` serves /healthz, /readyz and /metrics; unset: nothing listens. */
  workerPort: number | undefined;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** A whole-number variable (fallback when unset), refused outside [min, max] with a ConfigError naming it. */
export function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A true/false variable (fallback when unset), anything else refused with a ConfigError naming it. */
export function boolVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
  return raw === 'true';
}

/** REDIS_PREFIX (default "flowmatic"): deployments sharing one Redis database each need their own. */
function redisPrefix(env: Env): string {
  const value = (env.REDIS_PREFIX ?? '').trim() || 'flowmatic';
  if (!/^[A-Za-z0-9_.{}-]{1,64}$/.test(value))
    throw new ConfigError('REDIS_PREFIX', `must be 1-64 letters, digits, "-", "_", "." or braces, got "${value.slice(0, 80)}"`);
  return value;
}

/** A URL variable with one of the protocols, undefined when unset; a bad one is a ConfigError naming it. */
export function urlVar(env: Env, name: string, protocols: string[]): string | undefined {
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

const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: a hop count ("1"), or a comma-separated list of proxy addresses, CIDR ranges or
 * the presets loopback / linklocal / uniquelocal. "true" is refused: it would trust whatever
 * X-Forwarded-For a client sends.
 */
export function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') {
    throw new ConfigError(
      'TRUST_PROXY',
      'must be a hop count (e.g. 1) or a list of proxy addresses (e.g. 10.0.0.0/8), not "true": trusting every hop lets any client forge its address',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new ConfigError('TRUST_PROXY', `must be a hop count between 0 and 10, got ${hops}`);
    return hops;
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (PROXY_PRESETS.has(entry)) continue;
    const [address, prefix, extra] = entry.split('/');
    const valid =
      extra === undefined &&
      ipaddr.isValid(address) &&
      (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128)));
    if (!valid) throw new ConfigError('TRUST_PROXY', `must list IP addresses or CIDR ranges (e.g. 10.0.0.0/8), got "${entry}"`);
  }
  return entries;
}

function hostList(urls: Array<string | undefined>): string[] {
  const hosts: string[] = [];
  for (const raw of urls) {
    if (!raw) continue;
    try {
      const u = new URL(raw);
      if (u.protocol === 'https:' || u.protocol === 'http:') hosts.push(u.origin);
    } catch {
      /* not a URL: nothing to allow */
    }
  }
  return hosts;
}

function mailDomain(env: Env): string {
  const raw = (env.INBOUND_MAIL_DOMAIN || 'inbound.localhost').toLowerCase();
  if (!/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(raw)) {
    throw new ConfigError('INBOUND_MAIL_DOMAIN', `must be a domain name, got "${raw}"`);
  }
  return raw;
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
    redisPrefix: redisPrefix(env),
    secretKey: secretKey(env, dataDir),
    logLevel: env.LOG_LEVEL || 'info',
    authRateLimit: intVar(env, 'AUTH_RATE_LIMIT', 20, 1, 100000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    writeRateLimitPerUser: intVar(env, 'WRITE_RATE_LIMIT_PER_USER', 60, 1, 1_000_000),
    writeRateLimitPerAddress: intVar(env, 'WRITE_RATE_LIMIT_PER_ADDRESS', 120, 1, 1_000_000),
    production: env.NODE_ENV === 'production',
    serveSourceMaps: env.NODE_ENV !== 'production' || env.SERVE_SOURCE_MAPS === 'true',
    cspScriptHosts: env.NODE_ENV === 'production' ? hostList([env.ANALYTICS_SCRIPT_URL, env.SESSION_RECORDING_SCRIPT_URL]) : [],
    clientDir: existsSync(path.join(clientDir, 'index.html')) ? clientDir : undefined,
    pluginsDir: path.resolve(cwd, env.PLUGINS_DIR || './plugins'),
    maxUploadBytes: intVar(env, 'MAX_UPLOAD_MB', 10, 1, 1024) * 1024 * 1024,
    llmBaseUrl: urlVar(env, 'LLM_BASE_URL', ['http', 'https']),
    llmApiKey: env.LLM_API_KEY || undefined,
    llmModel: env.LLM_MODEL || undefined,
    webFetchAllowLoopback: env.NODE_ENV === 'test' && env.WEB_FETCH_ALLOW_LOOPBACK === 'true',
    engineUserConcurrency: intVar(env, 'ENGINE_USER_CONCURRENCY', 4, 1, 1000),
    engineStepTimeoutMs: intVar(env, 'ENGINE_STEP_TIMEOUT_MS', 60_000, 100, 3_600_000),
    engineAiStepTimeoutMs: intVar(env, 'ENGINE_AI_STEP_TIMEOUT_MS', 300_000, 100, 3_600_000),
    webhookRateLimit: intVar(env, 'WEBHOOK_RATE_LIMIT', 300, 1, 1_000_000),
    // under test (Jest) the listener is off unless asked for, so parallel test servers never share a port
    inboundSmtpPort: intVar(env, 'INBOUND_SMTP_PORT', env.NODE_ENV === 'test' || env.JEST_WORKER_ID !== undefined ? 0 : 2525, 0, 65535),
    inboundSmtpHost: env.INBOUND_SMTP_HOST || '127.0.0.1',
    inboundMailDomain: mailDomain(env),
    chatWebhookUrl: urlVar(env, 'CHAT_WEBHOOK_URL', ['http', 'https']),
    metricsToken: env.METRICS_TOKEN || undefined,
    runJobs: boolVar(env, 'RUN_JOBS', true),
    workerPort: env.WORKER_PORT ? intVar(env, 'WORKER_PORT', 0, 1, 65535) : undefined,
    previousSecretKeys: (env.PREVIOUS_SECRET_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    env: Object.freeze({ ...env }),
  };
}
