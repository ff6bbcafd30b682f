import { environmentName, resolveEnvironment } from '../../../src/core/environment';

describe('environment from the host name', () => {
  it.each([
    ['localhost', 'local'],
    ['app.localhost', 'local'],
    ['dev.flowmatic.example', 'dev'],
    ['staging.flowmatic.example', 'staging'],
    ['app.flowmatic.example', 'production'],
    ['127.0.0.1', 'production'],
  ])('%s is %s', (host, name) => {
    expect(environmentName(host)).toBe(name);
  });

  it('gives local the same-origin API, id 66075, label dev, debug on, analytics off', () => {
    expect(resolveEnvironment('localhost')).toEqual({
      name: 'local',
      apiBase: '',
      environmentId: 66075,
      version: '2.3',
      label: 'dev',
      debugLogging: true,
      analytics: false,
      sessionRecording: false,
      chunkLoadTimeoutMs: 120000,
    });
  });

  it('gives dev id 66075 and label dev, staging 66168 and label staging, production 54118 and no label', () => {
    const hosts = { dev: 'https://api.dev.example', staging: 'https://api.staging.example', production: 'https://api.example' };
    const dev = resolveEnvironment('dev.example', hosts);
    const staging = resolveEnvironment('staging.example', hosts);
    const prod = resolveEnvironment('app.example', hosts);
    expect([dev.environmentId, dev.label, dev.apiBase, dev.debugLogging, dev.analytics]).toEqual([66075, 'dev', hosts.dev, true, false]);
    expect([staging.environmentId, staging.label, staging.apiBase, staging.debugLogging, staging.analytics]).toEqual([
      66168,
      'staging',
      hosts.staging,
      false,
      false,
    ]);
    expect([prod.environmentId, prod.label, prod.apiBase, prod.debugLogging, prod.analytics, prod.sessionRecording]).toEqual([
      54118,
      '',
      hosts.production,
      false,
      true,
      true,
    ]);
    expect(prod.version).toBe('2.3');
  });
});
