import express, { type RequestHandler } from 'express';

import { ApiError, bodyTooLarge } from './errors';

/**
 * JSON bodies are read per route, after authentication, with the route's own
 * size limit, so an unauthenticated caller cannot make the server read or
 * parse a large body. A body declared larger than the limit is refused from
 * its Content-Length before anything else (authentication included). Before
 * parsing, the nesting depth is measured in one pass over the bytes: deeply
 * nested arrays cost the parser far more than their size suggests.
 */

const MAX_JSON_DEPTH = 32;
/** The default limit of a route's body: forms of a few fields. */
export const SMALL_BODY_BYTES = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The deepest nesting of arrays and objects in a JSON text, strings skipped. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, (depth += 1));
    else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return deepest;
}

/** `why` completes "The request body …". */
export const invalidJson = (why: string) => new ApiError('invalid_json', `The request body ${why}.`);

/** The JSON value of a body (none: `undefined`), or why it is not one; plain data, so a worker thread can run it. */
export function readJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false; why: string } {
  if (bytes.length === 0) return { ok: true, value: undefined };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, why: 'is not valid UTF-8' };
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) return { ok: false, why: `nests deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    // V8's message quotes the input; only the position is worth passing on.
    const position = /position (\d+)/.exec((err as Error).message)?.[1];
    return { ok: false, why: `is not valid JSON${position ? ` (at character ${position})` : ''}` };
  }
}

function parseJsonBytes(bytes: Buffer): unknown {
  const json = readJson(bytes);
  if (!json.ok) throw invalidJson(json.why);
  return json.value;
}

/**
 * A Content-Length over the limit is 413 at once, from the header alone, and
 * the connection is closed after the answer so the body is never read.
 * Without this the body parser would wait for the whole declared body (which
 * may never come) before answering. A chunked body declares no length: the
 * parser stops keeping it once the limit is passed and answers 413 when it ends.
 */
export function refuseDeclaredOversize(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) {
      res.setHeader('Connection', 'close');
      throw bodyTooLarge(limitBytes);
    }
    next();
  };
}

/** Reads the body as bytes (none: an empty buffer); over `limitBytes` is 413. */
export function rawBody(limitBytes: number): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: limitBytes }),
    (req, _res, next) => {
      if (!Buffer.isBuffer(req.body)) req.body = Buffer.alloc(0);
      next();
    },
  ];
}

/** Reads and parses the body (none: `undefined`); over `limitBytes` is 413. */
export function jsonBody(limitBytes: number): RequestHandler[] {
  return [
    ...rawBody(limitBytes),
    (req, _res, next) => {
      req.body = parseJsonBytes(req.body as Buffer);
      next();
    },
  ];
}
