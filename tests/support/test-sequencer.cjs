/**
 * Jest's own order (failed first, then the longest by the last run's durations, else by file
 * size), with one exception: the browser test that measures the page's long tasks
 * (tests/e2e/big-results.test.ts) goes last. The browser tests run two files at a time (with the
 * typecheck and the lint beside them in CI); last, it shares the machine with one other browser
 * test at most.
 */
const Sequencer = require('@jest/test-sequencer').default;

const LAST = /[\\/]tests[\\/]e2e[\\/]big-results\.test\.ts$/;

const lastOnes = (tests) => [...tests.filter((t) => !LAST.test(t.path)), ...tests.filter((t) => LAST.test(t.path))];

class FlowmaticSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    return Array.isArray(sorted) ? lastOnes(sorted) : sorted.then(lastOnes);
  }
}

module.exports = FlowmaticSequencer;
