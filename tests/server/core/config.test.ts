import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../../src/server/config';

describe('configuration from the environment', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'cfg-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has safe local defaults and generates SECRET_KEY into DATA_DIR on first start', () => {
    const c = loadConfig({ DATA_DIR: dir }, dir);
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.smtpUrl).toBeUndefined();
    expect(c.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(path.join(dir, 'secret.key'))).toBe(true);
    expect(loadConfig({ DATA_DIR: dir }, dir).secretKey).toBe(c.secretKey);
    expect(readFileSync(path.join(dir, 'secret.key'), 'utf8').trim()).toBe(c.secretKey);
  });

  it('reads every variable', () => {
    const c = loadConfig(
      {
        PORT: '8080',
        DATA_DIR: dir,
        PUBLIC_URL: 'https://app.example.com/',
        SMTP_URL: 'smtp://user:pw@mail.example.com:587',
        DATABASE_URL: 'postgres://127.0.0.1:5432/test',
        REDIS_URL: 'redis://127.0.0.1:6379',
        SECRET_KEY: 'x'.repeat(40),
        AUTH_RATE_LIMIT: '5',
        MAX_UPLOAD_MB: '20',
      },
      dir,
    );
    expect(c).toMatchObject({
      port: 8080,
      publicUrl: 'https://app.example.com',
      smtpUrl: 'smtp://user:pw@mail.example.com:587',
      databaseUrl: 'postgres://127.0.0.1:5432/test',
      redisUrl: 'redis://127.0.0.1:6379',
      secretKey: 'x'.repeat(40),
      authRateLimit: 5,
      maxUploadBytes: 20 * 1024 * 1024,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    [{ SECRET_KEY: 'short' }, 'SECRET_KEY'],
  ])('rejects %p with an error naming %s', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dir, ...env }, dir)).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, ...env }, dir)).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });
});
