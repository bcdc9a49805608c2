import { existsSync } from 'node:fs';

import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core, for the tests of what a person
 * opens in a browser. Where none is installed such a test says so and is
 * skipped (docs/testing.md).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `describe` where Chromium is installed; elsewhere `describe.skip`, after saying why for the file `name`. */
export function describeInBrowser(name: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  process.stdout.write(
    `${name}: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)\n`,
  );
  return describe.skip;
}

/** Headless Chromium; background networking off, since the browser itself would otherwise call Google's hosts, which is not the page's doing. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
