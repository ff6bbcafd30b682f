import path from 'node:path';
import { ParseBudgetError, runBounded, stopIdleWorkers } from '../../../src/server/files';

const TASKS = path.join(__dirname, 'fixtures/bounded-tasks.ts');
const run = <T>(fn: string, input?: unknown, budget?: { memoryMb?: number; timeoutMs?: number }) => runBounded<T>(TASKS, fn, input, { budget });

jest.setTimeout(60_000);

describe('bounded workers kept warm between parses', () => {
  afterEach(() => stopIdleWorkers());

  it('runs the next task in the worker the last one finished in', async () => {
    const first = await run<number>('whichThread');
    expect(await run<number>('whichThread')).toBe(first);
    expect(await run<number>('whichThread')).toBe(first);
  });

  it("keeps the worker after a task's own error, which comes back with its name, message and reason", async () => {
    const first = await run<number>('whichThread');
    await expect(run('fail', 'not a spreadsheet')).rejects.toMatchObject({ name: 'TaskError', message: 'not a spreadsheet', reason: 'bad-input' });
    expect(await run<number>('whichThread')).toBe(first);
  });

  it('never reuses a worker that ran out of memory: the next task gets a fresh one', async () => {
    const first = await run<number>('whichThread', undefined, { memoryMb: 64 });
    await expect(run('hog', undefined, { memoryMb: 64 })).rejects.toEqual(new ParseBudgetError('memory'));
    const next = await run<number>('whichThread', undefined, { memoryMb: 64 });
    expect(next).not.toBe(first);
  });

  it('never reuses a worker that ran out of time', async () => {
    const first = await run<number>('whichThread');
    await expect(run('sleep', 5_000, { timeoutMs: 300 })).rejects.toEqual(new ParseBudgetError('time'));
    expect(await run<number>('whichThread')).not.toBe(first);
  });

  it('replaces a worker whose heap stays above half its limit after a task', async () => {
    const leaky = await run<number>('leak', 40, { memoryMb: 64 });
    expect(await run<number>('whichThread', undefined, { memoryMb: 64 })).not.toBe(leaky);
  });

  it('keeps one warm worker per heap limit', async () => {
    const small = await run<number>('whichThread', undefined, { memoryMb: 64 });
    const big = await run<number>('whichThread', undefined, { memoryMb: 96 });
    expect(big).not.toBe(small);
    expect(await run<number>('whichThread', undefined, { memoryMb: 64 })).toBe(small);
    expect(await run<number>('whichThread', undefined, { memoryMb: 96 })).toBe(big);
  });

  it('runs two tasks at once in two workers, and both stay warm', async () => {
    const [a, b] = await Promise.all([run<number>('sleep', 200), run<number>('sleep', 200)]);
    expect(a).not.toBe(b);
    const [c, d] = await Promise.all([run<number>('sleep', 50), run<number>('sleep', 50)]);
    expect(new Set([c, d])).toEqual(new Set([a, b]));
  });
});
