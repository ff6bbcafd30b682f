import pretty from 'pino-pretty';
import type { DestinationStream } from 'pino';
import { ConfigError } from '../config';

export type LogFormat = 'json' | 'pretty';

/**
 * LOG_FORMAT=json|pretty; unset: readable ('pretty') when stdout is a terminal and NODE_ENV is
 * not production, JSON lines otherwise (containers, log shippers, pipes). A bad value throws a
 * ConfigError naming LOG_FORMAT.
 */
export function logFormat(env: Record<string, string | undefined> = process.env, isTTY = Boolean(process.stdout.isTTY)): LogFormat {
  const raw = env.LOG_FORMAT?.trim().toLowerCase();
  if (raw) {
    if (raw === 'json' || raw === 'pretty') return raw;
    throw new ConfigError('LOG_FORMAT', `must be "json" or "pretty", got "${env.LOG_FORMAT}"`);
  }
  return isTTY && env.NODE_ENV !== 'production' ? 'pretty' : 'json';
}

/**
 * The line a person reads: time, level, message; a log line that carries `links` (the outbox
 * mailer's verification and reset links) shows each link on a line of its own, bold, so a local
 * user finds the link to click without reading JSON.
 */
export function prettyMessage(
  log: Record<string, unknown>,
  messageKey: string,
  _level: string,
  extras?: { colors?: { bold(s: string): string; cyan(s: string): string } },
): string {
  const message = String(log[messageKey] ?? '');
  const links = Array.isArray(log.links) ? log.links.filter((l): l is string => typeof l === 'string') : [];
  if (!links.length) return message;
  const shown = (s: string) => (extras?.colors ? extras.colors.bold(extras.colors.cyan(s)) : s);
  // the links are printed below; the message keeps what comes before them
  const head = message.split(': http')[0];
  return `${head}\n${links.map((l) => `    ➜ ${shown(l)}`).join('\n')}`;
}

/** A readable, synchronous (nothing lost on exit) stream to stdout. */
export function prettyStream(colorize = Boolean(process.stdout.isTTY)): DestinationStream {
  return pretty({
    colorize,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,links',
    messageFormat: prettyMessage as never,
  });
}
