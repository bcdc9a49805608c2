import { startTracing } from '../../platform/tracing';

/** Imported first by server.ts, so the HTTP instrumentation is in place before Express and the rest load node:http. */
export const tracing = startTracing('api');
