import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { termTableMarkdown } from '../../domain/terms/markdown';

/**
 * docs/documents.md carries the term table as the code has it, between two
 * markers. `npm run docs:terms` (this test with UPDATE_TERM_DOCS=1) writes
 * it there; otherwise a page that fell behind the table fails here.
 */

const PAGE = join(__dirname, '..', '..', 'docs', 'documents.md');
const START = '<!-- term table: generated from domain/terms/table.ts by `npm run docs:terms` -->';
const END = '<!-- end of the term table -->';

it('when the documents page is read, then its term table is the one the term table gives', () => {
  const page = readFileSync(PAGE, 'utf8');
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  const current = page.slice(start + START.length, end).trim();
  const generated = termTableMarkdown();
  if (process.env.UPDATE_TERM_DOCS === '1' && current !== generated) {
    writeFileSync(PAGE, `${page.slice(0, start + START.length)}\n\n${generated}\n\n${page.slice(end)}`);
    return;
  }
  expect(current).toBe(generated);
});
