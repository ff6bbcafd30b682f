import { shutdownTimes } from '../../../src/server/ops/process';

describe('shutdown timings', () => {
  it('default to a 10 s limit and no drain, and read SHUTDOWN_TIMEOUT_MS and SHUTDOWN_DRAIN_MS', () => {
    expect(shutdownTimes({})).toEqual({ timeoutMs: 10_000, drainMs: 0 });
    expect(shutdownTimes({ SHUTDOWN_TIMEOUT_MS: '25000', SHUTDOWN_DRAIN_MS: '5000' })).toEqual({ timeoutMs: 25_000, drainMs: 5000 });
    expect(shutdownTimes({ SHUTDOWN_TIMEOUT_MS: ' ', SHUTDOWN_DRAIN_MS: '' })).toEqual({ timeoutMs: 10_000, drainMs: 0 });
  });

  it('refuse a bad value with a message naming the variable', () => {
    expect(() => shutdownTimes({ SHUTDOWN_TIMEOUT_MS: '10s' })).toThrow(
      'Invalid configuration: SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000, got "10s"',
    );
    expect(() => shutdownTimes({ SHUTDOWN_TIMEOUT_MS: '50' })).toThrow(
      'Invalid configuration: SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000, got "50"',
    );
    expect(() => shutdownTimes({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(
      'Invalid configuration: SHUTDOWN_DRAIN_MS must be a whole number of milliseconds from 0 to 3600000, got "-1"',
    );
    expect(() => shutdownTimes({ SHUTDOWN_TIMEOUT_MS: '5000', SHUTDOWN_DRAIN_MS: '5000' })).toThrow(
      'Invalid configuration: SHUTDOWN_DRAIN_MS (5000) must be shorter than SHUTDOWN_TIMEOUT_MS (5000)',
    );
  });
});
