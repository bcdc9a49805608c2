import { startTracing } from '../platform/tracing';

/** Imported first by main.ts, so the HTTP instrumentation is in place before the lookups and webhooks load node:http. */
export const tracing = startTracing('worker');
