import pino, { type Logger } from 'pino';
import { REDACTED, redactSecretFields } from '../domain/secret-names.js';
import { prettyLine } from './pretty-log.js';

/**
 * Fields whose values are credentials wherever they appear in a log object. Every field whose name
 * is a secret name (src/domain/secret-names.ts: token, secret, key, password, auth, credential, in
 * any case and with any separator — `hf_token`, `hfToken`, `secretAccessKey`, `authorization`) is
 * redacted by pattern in the log formatter; these paths are what the pattern does not
 * name (cookies). Request URLs are redacted by the same pattern (src/api/request-log.ts).
 */
export const REDACTED_PATHS: readonly string[] = ['req.headers.cookie', 'headers.cookie', 'cookie', '*.cookie'];

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
 * buffered up to 4 KB): a debug or info line never blocks a request on the terminal or a pipe. A
 * warning or an error is written at once, with what was buffered before it (lineSink). What is
 * buffered is written by `flushLogger` at shutdown, and by pino's own exit hook if the process exits first.
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
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: [...REDACTED_PATHS], censor: REDACTED },
    // A logged object's fields, nested ones too (a child's bindings are the code's own: reqId, component, operationId).
    formatters: { log: (o) => redactSecretFields(o) },
  };
  const sink = destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 });
  return pino(options, lineSink(sink, format === 'pretty' ? (line) => prettyLine(line, color) : undefined));
}

/** pino's first field: `{"level":40,` (the default level formatter, which this logger keeps). */
const LEVEL_FIELD = /^\{"level":(\d+)/;
/** warn and above. */
const URGENT_LEVEL = 40;

type Sink = { write(line: string): unknown; flush?(cb?: (err?: Error) => void): void; flushSync?(): void };

/**
 * pino's destination: each JSON line (turned pretty when asked) goes to the sink, which buffers it.
 * A warning or an error is written through at once, with everything buffered before it: the lines
 * just before a crash (kill -9, the OOM killer, a native fault — no exit hook runs) are the ones that
 * say why, and must not die in a 4 KB buffer. Warnings are rare by design (the log is quiet at info).
 */
function lineSink(
  sink: Sink,
  transform?: (line: string) => string,
): pino.DestinationStream & Pick<Sink, 'flush' | 'flushSync'> {
  return {
    write(line: string) {
      sink.write(transform ? transform(line) : line);
      if (sink.flushSync && Number(LEVEL_FIELD.exec(line)?.[1] ?? 0) >= URGENT_LEVEL) {
        try {
          sink.flushSync();
        } catch {
          // Not open yet, or closing: the line stays buffered and is written with the rest.
        }
      }
    },
    ...(sink.flush ? { flush: (cb?: (err?: Error) => void) => sink.flush!(cb) } : {}),
    ...(sink.flushSync ? { flushSync: () => sink.flushSync!() } : {}),
  };
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
