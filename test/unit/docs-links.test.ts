import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Keeps the split of the documentation honest: the README is a front page a
 * newcomer reads in minutes, every page in docs/ is reachable from the index,
 * every relative link (and its #anchor) lands on something that exists, and
 * the README's SDK example is the file tsc checks and `npx tsx` runs.
 */

const ROOT = path.resolve(__dirname, '../..');
const FRONT_PAGE = path.join(ROOT, 'README.md');
const DOCS = path.join(ROOT, 'docs');
const FRONT_PAGE_MAX_LINES = 160;
const SDK_EXAMPLE = path.join(ROOT, 'sdk/examples/first-document.mts');

const docPages = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .map((name) => path.join(DOCS, name));
const pages = [FRONT_PAGE, ...docPages];

/** The text without its fenced code blocks, where a `#` line is no heading. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** The text without any code: a link inside code is an example, not a link. */
function prose(markdown: string): string {
  return withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');
}

/** Relative link targets: `[text](target)`, without web addresses. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of withoutCodeBlocks(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** What is wrong with one link of a page, or undefined when it lands. */
function brokenLink(page: string, target: string): string | undefined {
  const [file = '', anchor] = target.split('#');
  const resolved = file === '' ? page : path.resolve(path.dirname(page), decodeURIComponent(file));
  // A clone has nothing beside it: the documentation names what it needs, it does not point out of the repository.
  if (path.relative(ROOT, resolved).startsWith('..'))
    return `${target}: outside the repository, which a clone does not have`;
  if (!existsSync(resolved)) return `${target}: no such file`;
  if (anchor === undefined || statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return undefined;
  return anchors(readFileSync(resolved, 'utf8')).has(anchor) ? undefined : `${target}: no heading with that anchor`;
}

describe('the documentation', () => {
  it.each(pages.map((page) => [path.relative(ROOT, page), page]))(
    'when %s is read, then it names no file outside the repository, in a link or in code',
    (_name, page) => {
      expect(readFileSync(page, 'utf8').match(/\.\.\/shared\b[^\s)`]*/g) ?? []).toEqual([]);
    },
  );

  it.each(pages.map((page) => [path.relative(ROOT, page), page]))(
    'when %s is read, then every relative link and anchor lands',
    (_name, page) => {
      const markdown = readFileSync(page, 'utf8');
      const broken = relativeLinks(markdown)
        .map((target) => brokenLink(page, target))
        .filter((problem) => problem !== undefined);
      expect(broken).toEqual([]);
    },
  );

  it(`when the front page is read, then it holds at most ${FRONT_PAGE_MAX_LINES} lines`, () => {
    const lines = readFileSync(FRONT_PAGE, 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(FRONT_PAGE_MAX_LINES);
  });

  it('when the index is read, then it links every page of docs/', () => {
    const index = path.join(DOCS, 'README.md');
    const linked = new Set(
      relativeLinks(readFileSync(index, 'utf8')).map((target) => path.resolve(DOCS, target.split('#')[0]!)),
    );
    const unlinked = docPages
      .filter((page) => page !== index && !linked.has(page))
      .map((page) => path.relative(ROOT, page));
    expect(unlinked).toEqual([]);
  });

  it("when the front page shows the SDK's first document, then it is sdk/examples/first-document.mts as it is", () => {
    const shown = /```ts\n([\s\S]*?)```/.exec(readFileSync(FRONT_PAGE, 'utf8'))?.[1];
    expect(shown).toBe(readFileSync(SDK_EXAMPLE, 'utf8'));
  });
});

describe('the link check itself', () => {
  it('when links sit in code or point to the web, then they are not checked; others are', () => {
    const markdown = 'See [a](a.md#x) and `[b](b.md)`.\n```\n[c](c.md)\n```\n[d](https://example.com) [e](#f)';
    expect(relativeLinks(markdown)).toEqual(['a.md#x', '#f']);
  });

  it('when headings carry punctuation, code or repeats, then their anchors are those GitHub makes', () => {
    const markdown = '# Run it, test it\n## The `ops` CLI: more\n## Notes\n## Notes\n```\n# not a heading\n```';
    expect([...anchors(markdown)]).toEqual(['run-it-test-it', 'the-ops-cli-more', 'notes', 'notes-1']);
  });
});
