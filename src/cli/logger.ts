import pino, { type Logger } from 'pino';
import { prettyLine } from './pretty-log.js';

/**
 * Fields whose values are credentials wherever they appear in a log object: headers, tokens, AWS
 * keys, Hugging Face tokens, passwords. Request URLs are redacted separately (src/api/request-log.ts).
 */
export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'token',
  '*.token',
  '*.*.token',
  'hfToken',
  '*.hfToken',
  'password',
  '*.password',
  'secretAccessKey',
  '*.secretAccessKey',
  'sessionToken',
  '*.sessionToken',
];

/** `pretty`: one short readable line per entry (the terminal); `json`: one JSON object per line (log shippers). */
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface ServerLoggerOptions {
  /** pino level; default INSTANTSTART_LOG_LEVEL, else info. */
  level?: string;
  /** Default INSTANTSTART_LOG_FORMAT, else pretty. */
  format?: LogFormat;
  /** Where lines go instead of stdout (tests read what would be written); written synchronously. */
  destination?: { write(line: string): unknown };
  /** Colours in pretty lines; default: when stdout is a terminal and NO_COLOR is unset. */
  color?: boolean;
}

/** The format named by `value` (a flag or INSTANTSTART_LOG_FORMAT); RangeError naming the choices otherwise. */
export function parseLogFormat(value: string): LogFormat {
  const format = LOG_FORMATS.find((f) => f === value);
  if (!format) throw new RangeError(`log format must be ${LOG_FORMATS.join(' or ')}, got '${value}'`);
  return format;
}

/**
 * The server's logger, credentials redacted. On stdout it writes asynchronously (pino's sonic-boom,
 * buffered up to 4 KB): a log line never blocks a request on the terminal or a pipe. What is buffered
 * is written by `flushLogger` at shutdown, and by pino's own exit hook if the process exits first.
 * Pretty lines are formatted from the JSON pino produced, so redaction is the same in both formats.
 *
 * @example
 * const logger = createServerLogger({ format: 'json' });
 * // … at shutdown:
 * await flushLogger(logger);
 */
export function createServerLogger({
  level = process.env.INSTANTSTART_LOG_LEVEL ?? 'info',
  format = parseLogFormat(process.env.INSTANTSTART_LOG_FORMAT ?? 'pretty'),
  destination,
  color = process.stdout.isTTY === true && !process.env.NO_COLOR,
}: ServerLoggerOptions = {}): Logger {
  const options = { level, redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' } };
  const sink = destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 });
  if (format === 'json') return pino(options, sink as pino.DestinationStream);
  return pino(options, prettyStream(sink, color));
}

/** Writes what the logger buffered; resolves once it is handed to the OS (at once for a synchronous destination). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      resolve(); // a destroyed stream has nothing left to write
    }
  });
}

type Sink = { write(line: string): unknown; flush?(cb?: (err?: Error) => void): void; flushSync?(): void };

/** A destination that turns each JSON line into a pretty one, keeping the sink's flush for pino. */
function prettyStream(sink: Sink, color: boolean): pino.DestinationStream & Pick<Sink, 'flush' | 'flushSync'> {
  return {
    write: (line: string) => void sink.write(prettyLine(line, color)),
    ...(sink.flush ? { flush: (cb?: (err?: Error) => void) => sink.flush!(cb) } : {}),
    ...(sink.flushSync ? { flushSync: () => sink.flushSync!() } : {}),
  };
}
