import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { officialValidator } from '../../platform/official-validator';
import { validFixtures } from '../fixtures/documents';
import { officialExamples } from '../support/official-examples';
import { essentialsOf, pdfPage, pdfText } from '../support/rendering';
import { sharedStack } from '../support/test-stack';

/**
 * The human-readable document (`GET /v1/documents/{id}/pdf`) is KoSIT's XRechnung visualization run
 * by the validator service: every official example and every document our conformance fixtures
 * convert to must come out as a PDF a person can read the essentials from.
 */

const REFERENCE_PAGE = join(__dirname, '..', 'fixtures', 'rendering', 'base-example-page-1.png');
/** Dots per inch of the compared page: enough to see the layout, small enough to keep in the repository. */
const PAGE_DPI = 40;

const converted = validFixtures.map(({ name, body, company }) => {
  const result = convertDocument(documentInputSchema.parse(body), company);
  if (!result.ok) throw new Error(`the fixture "${name}" is refused`);
  return { name: `fixture: ${name}`, xml: result.ubl };
});
const documents = [...officialExamples('peppol-bis'), ...officialExamples('en16931'), ...converted];

/** Renders two at a time: the validator's send lane has one permit per core. */
async function renderAll(format: 'pdf'): Promise<Map<string, Buffer>> {
  const validator = officialValidator(sharedStack().validatorUrl);
  const rendered = new Map<string, Buffer>();
  const queue = [...documents];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) rendered.set(next.name, await validator.render(next.xml, format, 'en'));
  };
  await Promise.all([worker(), worker()]);
  return rendered;
}

describe('every official example and every converted fixture renders to a readable PDF', () => {
  let pdfs: Map<string, Buffer>;

  beforeAll(async () => {
    pdfs = await renderAll('pdf');
  }, 600_000);

  it.each(documents.map((document) => [document.name, document.xml] as const))('%s: its number, issue date, parties and amount due are on the page', async (name, xml) => {
    const pdf = pdfs.get(name)!;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    const { number, issueDate, seller, buyer, payable } = essentialsOf(xml);
    for (const essential of [number, issueDate, seller, buyer, payable]) {
      expect(essential).not.toBe('');
      expect(text).toContain(essential);
    }
  });

  it('when the first page of the base example is drawn, then it matches the reviewed picture in test/fixtures/rendering', async () => {
    const page = PNG.sync.read(await pdfPage(pdfs.get('peppol-bis/base-example.xml')!, 1, PAGE_DPI));
    if (process.env.UPDATE_RENDERING_REFERENCE === '1' || !existsSync(REFERENCE_PAGE)) {
      // Made once, looked at, committed: a changed rendering fails below until someone looks again.
      if (process.env.UPDATE_RENDERING_REFERENCE !== '1') throw new Error(`no reference picture at ${REFERENCE_PAGE}; run with UPDATE_RENDERING_REFERENCE=1, look at it, commit it`);
      mkdirSync(join(REFERENCE_PAGE, '..'), { recursive: true });
      writeFileSync(REFERENCE_PAGE, PNG.sync.write(page));
    }
    const reference = PNG.sync.read(readFileSync(REFERENCE_PAGE));
    expect([page.width, page.height]).toEqual([reference.width, reference.height]);
    const differing = pixelmatch(page.data, reference.data, null, page.width, page.height, { threshold: 0.1 });
    // Font rasterising may shift a few edge pixels between poppler builds; a changed layout moves thousands.
    expect(differing / (page.width * page.height)).toBeLessThan(0.005);
  });
});
