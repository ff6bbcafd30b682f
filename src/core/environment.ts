/**
 * The environment is picked from the host name the app is served from (spec section 9).
 */
export type EnvironmentName = 'local' | 'dev' | 'staging' | 'production';

export interface EnvironmentInfo {
  name: EnvironmentName;
  /** API base; empty means same origin. */
  apiBase: string;
  /** Numeric environment id (66075 local/dev, 66168 staging, 54118 production). */
  environmentId: number;
  version: '2.3';
  /** 'dev' for local and dev, 'staging' for staging, '' for production. */
  label: 'dev' | 'staging' | '';
  debugLogging: boolean;
  analytics: boolean;
  sessionRecording: boolean;
  /** chunk load time-out, ms */
  chunkLoadTimeoutMs: number;
}

export const VERSION = '2.3' as const;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** API hosts for the hosted environments; overridable at build time, same origin by default. */
export interface ApiHosts {
  dev: string;
  staging: string;
  production: string;
}

export const DEFAULT_API_HOSTS: ApiHosts = { dev: '', staging: '', production: '' };

export function environmentName(hostname: string): EnvironmentName {
  const host = hostname.toLowerCase();
  if (host.includes('localhost')) return 'local';
  if (host.includes('dev')) return 'dev';
  if (host.includes('staging')) return 'staging';
  return 'production';
}

export function resolveEnvironment(hostname: string, apiHosts: ApiHosts = DEFAULT_API_HOSTS): EnvironmentInfo {
  const name = environmentName(hostname);
  const common = { version: VERSION, chunkLoadTimeoutMs: CHUNK_LOAD_TIMEOUT_MS };
  switch (name) {
    case 'local':
      return { ...common, name, apiBase: '', environmentId: 66075, label: 'dev', debugLogging: true, analytics: false, sessionRecording: false };
    case 'dev':
      return { ...common, name, apiBase: apiHosts.dev, environmentId: 66075, label: 'dev', debugLogging: true, analytics: false, sessionRecording: false };
    case 'staging':
      return {
        ...common,
        name,
        apiBase: apiHosts.staging,
        environmentId: 66168,
        label: 'staging',
        debugLogging: false,
        analytics: false,
        sessionRecording: false,
      };
    case 'production':
      return { ...common, name, apiBase: apiHosts.production, environmentId: 54118, label: '', debugLogging: false, analytics: true, sessionRecording: true };
  }
}
