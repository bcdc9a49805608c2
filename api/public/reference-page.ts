import type { Express } from 'express';

/**
 * `GET /docs`: the interactive reference of /v1/openapi.json, drawn by
 * Redoc. Every byte the page needs comes from this server (a deployment may
 * have no internet): the page, Redoc's standalone bundle from npm, and the
 * script that starts it. The Content-Security-Policy lets the browser fetch
 * from this origin only, so nothing on the page can call out even if a
 * future Redoc tried; styles and Redoc's search worker are made in the
 * page (inline styles, a blob: worker), which the policy names.
 */

const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');
/** Starts Redoc on this server's own description; a file of its own because the policy allows no inline script. */
const START_SCRIPT = `Redoc.init('/v1/openapi.json', { expandResponses: '200,201,202', requiredPropsFirst: true }, document.getElementById('reference'));\n`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>e-invoice delivery API reference</title>
<style>body { margin: 0; }</style>
</head>
<body>
<div id="reference"></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function serveReferencePage(app: Express): void {
  app.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', POLICY);
    res.type('html').send(PAGE);
  });
  app.get('/docs/start.js', (_req, res) => {
    res.type('application/javascript').send(START_SCRIPT);
  });
  app.get('/docs/redoc.standalone.js', (_req, res) => {
    res.sendFile(REDOC_BUNDLE, { maxAge: '1h', headers: { 'Content-Type': 'application/javascript; charset=utf-8' } });
  });
}
