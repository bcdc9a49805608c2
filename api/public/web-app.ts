import { existsSync } from 'node:fs';
import path from 'node:path';

import express, { type Express } from 'express';

/**
 * `/app`: the web app (app/), built by Vite into dist/app and served from
 * this process, same origin as the API it calls. Its assets carry their
 * content hash in their names, so they are cached for good; its page is
 * asked for again each time. The Content-Security-Policy lets the page load
 * and call this origin only, with no inline script or style.
 */

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  // A document's rendering is shown in a frame of this origin.
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The folder holding package.json above this file: the checkout, or the image's working directory. */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const WEB_APP_DIR = path.join(projectRoot(), 'dist', 'app');

export function serveWebApp(app: Express, dir = WEB_APP_DIR): void {
  app.use('/app', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  app.use('/app/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  // Every other path under /app is a screen of the app: its one page, which reads the path itself.
  app.get(['/app', '/app/*rest'], (_req, res) => {
    const page = path.join(dir, 'index.html');
    if (!existsSync(page)) {
      res.status(503).type('text/plain').send('The web app is not built: run `npm run app:build`.\n');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(page);
  });
}
