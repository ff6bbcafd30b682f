import { Writable } from 'node:stream';
import pretty from 'pino-pretty';
import pino from 'pino';
import { logFormat, prettyMessage } from '../../../src/server/ops/logging';
import { loggerOptions } from '../../../src/server/http/log-redaction';

describe('log format', () => {
  it('is readable on a terminal outside production, JSON lines otherwise; LOG_FORMAT overrides', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({ NODE_ENV: 'development' }, true)).toBe('pretty');
    expect(logFormat({ NODE_ENV: 'production' }, true)).toBe('json');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' }, false)).toBe('pretty');
    expect(logFormat({ LOG_FORMAT: ' JSON ' }, true)).toBe('json');
    expect(() => logFormat({ LOG_FORMAT: 'xml' }, true)).toThrow('Invalid configuration: LOG_FORMAT must be "json" or "pretty", got "xml"');
  });

  it('gives the logger a readable stream only for pretty', () => {
    expect(Object.keys(loggerOptions('info', 'json')).sort()).toEqual(['level', 'serializers']);
    expect(Object.keys(loggerOptions('info', 'pretty')).sort()).toEqual(['level', 'serializers', 'stream']);
  });

  it("prints an outbox mail's links each on a line of its own", () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const log = pino(
      { level: 'info' },
      pretty({ destination: sink, colorize: false, sync: true, ignore: 'pid,hostname,links,time', messageFormat: prettyMessage as never }),
    );
    const links = ['http://127.0.0.1:3000/?verify=true&token=abc', 'http://127.0.0.1:3000/reset?token=def'];
    log.info({ to: 'ann@example.com', links }, `Mail to ann@example.com written to the outbox: ${links.join(' ')}`);
    log.info('Serving the API at http://127.0.0.1:3000');
    expect(out.split('\n')).toEqual([
      'INFO: Mail to ann@example.com written to the outbox',
      '    ➜ http://127.0.0.1:3000/?verify=true&token=abc',
      '    ➜ http://127.0.0.1:3000/reset?token=def',
      '    to: "ann@example.com"',
      'INFO: Serving the API at http://127.0.0.1:3000',
      '',
    ]);
  });
});
