import pino, { type Logger } from 'pino';

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

/**
 * The server's logger: JSON lines at INSTANTSTART_LOG_LEVEL (default info) on stdout, or on
 * `destination` (tests read what would be written), credentials redacted.
 */
export function createServerLogger(level = process.env.INSTANTSTART_LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
