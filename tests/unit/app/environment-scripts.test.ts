import { installEnvironmentScripts } from '../../../src/app/environment-scripts';
import { testShell } from '../../support/render';

describe('environment scripts and logging (spec section 9)', () => {
  const original = { log: console.log, debug: console.debug };
  const env = process.env;
  beforeEach(() => {
    process.env = { ...env, ANALYTICS_SCRIPT_URL: 'https://tags.example/tm.js', SESSION_RECORDING_SCRIPT_URL: 'https://rec.example/r.js' };
    document.head.innerHTML = '';
  });
  afterEach(() => {
    process.env = env;
    console.log = original.log;
    console.debug = original.debug;
  });

  const install = (hostname: string) => testShell({ hostname }).container;

  it.each(['localhost', 'dev.flowmatic.example', 'staging.flowmatic.example'])('loads no outside script on %s', (host) => {
    const c = install(host);
    expect(installEnvironmentScripts(c, document)).toEqual([]);
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
  });

  it('loads the tag-manager and session-recording scripts on production hosts only, and silences debug logging', () => {
    const c = install('app.flowmatic.example');
    expect(installEnvironmentScripts(c, document)).toEqual(['https://tags.example/tm.js', 'https://rec.example/r.js']);
    expect([...document.head.querySelectorAll('script')].map((s) => s.getAttribute('src'))).toEqual(['https://tags.example/tm.js', 'https://rec.example/r.js']);
    expect(console.log).not.toBe(original.log);
  });

  it('keeps console logging on local and dev hosts', () => {
    const c = install('localhost');
    installEnvironmentScripts(c, document);
    expect(console.log).toBe(original.log);
  });
});
