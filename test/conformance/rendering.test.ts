import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { officialValidator, ValidatorUnavailableError } from '../../platform/official-validator';
import { validFixtures } from '../fixtures/documents';
import { officialExamples } from '../support/official-examples';
import { essentialsOf, htmlText, pdfPage, pdfText } from '../support/rendering';
import { sharedStack } from '../support/test-stack';

/**
 * The human-readable document (`GET /v1/documents/{id}/pdf` and `/html`) is KoSIT's XRechnung
 * visualization run by the validator service with our labels: every official example and every
 * document our conformance fixtures convert to must come out as a PDF a person can read the essentials
 * from, and in every language as a page that says what a Peppol BIS document is in that language's words
 * and formats, with none of the viewer's own words.
 */

const REFERENCES = join(__dirname, '..', 'fixtures', 'rendering');
/** Dots per inch of the compared page: enough to see the layout, small enough to keep in the repository. */
const PAGE_DPI = 40;
const LANGUAGES = ['en', 'de', 'fr', 'nl'] as const;
type Language = (typeof LANGUAGES)[number];

/**
 * What the base example (an invoice) and its credit note say in each language: the number's label, the
 * amount due (1656.25) and issue date (2017-11-13) as the language writes them, the buyer's country (SE).
 */
const SAYS: Record<
  Language,
  { invoiceNumber: string; creditNoteNumber: string; amountDue: string; issueDate: string; buyerCountry: string }
> = {
  en: {
    invoiceNumber: 'Invoice number',
    creditNoteNumber: 'Credit note number',
    amountDue: '1,656.25',
    issueDate: '13 November 2017',
    buyerCountry: 'SE (Sweden)',
  },
  de: {
    invoiceNumber: 'Rechnungsnummer',
    creditNoteNumber: 'Gutschriftsnummer',
    amountDue: '1.656,25',
    issueDate: '13.11.2017',
    buyerCountry: 'SE (Schweden)',
  },
  // The French thousands separator is a no-break space, which the text readers turn into a space.
  fr: {
    invoiceNumber: 'Numéro de facture',
    creditNoteNumber: 'Numéro d’avoir',
    amountDue: '1 656,25',
    issueDate: '13/11/2017',
    buyerCountry: 'SE (Suède)',
  },
  nl: {
    invoiceNumber: 'Factuurnummer',
    creditNoteNumber: 'Creditnotanummer',
    amountDue: '1.656,25',
    issueDate: '13-11-2017',
    buyerCountry: 'SE (Zweden)',
  },
};
/**
 * The viewer's own words (XRechnung's Leitweg-ID as the label of a buyer reference, its disclaimer, its page note,
 * a German extension's sum), a missing label's marker, and the English HTML's old mislabelled invoice number. (The
 * electronic address scheme 0204 is named Leitweg-ID, rightly: a label is what is followed by a colon.)
 */
const NEVER_SHOWN = [
  '???',
  'Leitweg-ID:',
  'Haftung',
  'liability',
  'Areas without content',
  'Bereiche ohne Inhalt',
  'Third party payment',
  'Seller Information',
];
/** German words the viewer wrote whatever the language. */
const GERMAN_ONLY = ['brutto', 'Schweden', 'Vereinigtes Königreich'];

const converted = validFixtures.map(({ name, body, company }) => {
  const result = convertDocument(documentInputSchema.parse(body), company);
  if (!result.ok) throw new Error(`the fixture "${name}" is refused`);
  return { name: `fixture: ${name}`, xml: result.ubl };
});
const documents = [...officialExamples('peppol-bis'), ...officialExamples('en16931'), ...converted];

/**
 * Renders in the validator's `view` lane (the renderings people ask for), one at a time: never in the `send`
 * lane, whose permits the shared stack's send workflows need for their validations, and never more than one of
 * the render workers, which the stack's own deliveries and views share.
 */
const AS_VIEWED = { lane: 'view' } as const;

/**
 * One rendering; asked again when the validator answered that no render worker became free in time (on a
 * loaded machine a worker stopped at its time limit takes a while to be replaced), as a workflow's retry would.
 */
async function rendered(xml: string, format: 'pdf' | 'html', lang: Language, attempts = 3): Promise<Buffer> {
  try {
    return await officialValidator(sharedStack().validatorUrl).render(xml, format, lang, AS_VIEWED);
  } catch (err) {
    if (attempts > 1 && err instanceof ValidatorUnavailableError && err.message.includes('"stopped":"busy"'))
      return rendered(xml, format, lang, attempts - 1);
    throw err;
  }
}

async function renderAll(format: 'pdf' | 'html', lang: Language): Promise<Map<string, Buffer>> {
  const all = new Map<string, Buffer>();
  for (const { name, xml } of documents) all.set(name, await rendered(xml, format, lang));
  return all;
}

const example = (name: string) => documents.find((document) => document.name === name)!.xml;
const textOf = async (format: 'pdf' | 'html', rendered: Buffer) =>
  format === 'pdf' ? pdfText(rendered) : htmlText(rendered.toString('utf8'));

describe('every official example and every converted fixture renders to a readable PDF', () => {
  let pdfs: Map<string, Buffer>;

  beforeAll(async () => {
    pdfs = await renderAll('pdf', 'en');
  }, 600_000);

  it.each(documents.map((document) => [document.name, document.xml] as const))(
    '%s: its number, issue date, parties and amount due are on the page',
    async (name, xml) => {
      const pdf = pdfs.get(name)!;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const text = await pdfText(pdf);
      const { number, issueDate, seller, buyer, payable } = essentialsOf(xml);
      for (const essential of [number, issueDate, seller, buyer, payable]) {
        expect(essential).not.toBe('');
        expect(text).toContain(essential);
      }
    },
  );

  it("when the seller's trading name is its legal name, then it is not shown as a different trading name; the buyer's, which differs, still is", async () => {
    const original = example('peppol-bis/base-example.xml');
    const sameName = original.replace(
      '<cbc:Name>SupplierTradingName Ltd.</cbc:Name>',
      '<cbc:Name>SupplierOfficialName Ltd</cbc:Name>',
    );
    expect(sameName).not.toBe(original);
    const text = await pdfText(await rendered(sameName, 'pdf', 'en'));
    expect(text).not.toContain('Trading name: SupplierOfficialName Ltd');
    expect(text).toContain('Trading name: BuyerTradingName AS');
  });
});

describe.each(LANGUAGES)('in %s', (lang) => {
  const says = SAYS[lang];

  it.each(['pdf', 'html'] as const)(
    "when every example is rendered as %s, then no label is missing and none of the viewer's own words shows",
    async (format) => {
      const rendered = await renderAll(format, lang);
      for (const [name, page] of rendered) {
        const text = await textOf(format, page);
        for (const word of [...NEVER_SHOWN, ...(lang === 'de' ? [] : GERMAN_ONLY)]) {
          if (text.includes(word)) throw new Error(`${name} (${format}, ${lang}) shows "${word}"`);
        }
      }
    },
    600_000,
  );

  it.each(['pdf', 'html'] as const)(
    'when the base invoice and its credit note are rendered as %s, then each is numbered under its own label, with amounts, dates and countries as the language writes them',
    async (format) => {
      const invoice = await textOf(format, await rendered(example('peppol-bis/base-example.xml'), format, lang));
      expect(invoice).toContain(`${says.invoiceNumber}: Snippet1`);
      expect(invoice).not.toContain(says.creditNoteNumber);
      for (const written of [says.amountDue, says.issueDate, says.buyerCountry]) expect(invoice).toContain(written);

      const creditNote = await textOf(
        format,
        await rendered(example('peppol-bis/base-creditnote-correction.xml'), format, lang),
      );
      expect(creditNote).toContain(`${says.creditNoteNumber}: Snippet1`);
      expect(creditNote).not.toContain(`${says.invoiceNumber}:`);
      expect(creditNote).toContain(says.amountDue);
    },
  );

  it("when the page 1 of the base example's PDF is drawn, then it matches the reviewed picture in test/fixtures/rendering", async () => {
    const pdf = await rendered(example('peppol-bis/base-example.xml'), 'pdf', lang);
    const page = PNG.sync.read(await pdfPage(pdf, 1, PAGE_DPI));
    const referencePath = join(REFERENCES, `base-example-page-1.${lang}.png`);
    if (process.env.UPDATE_RENDERING_REFERENCE === '1') {
      // Made once, looked at, committed: a changed rendering fails below until someone looks again.
      mkdirSync(REFERENCES, { recursive: true });
      writeFileSync(referencePath, PNG.sync.write(page));
    }
    if (!existsSync(referencePath))
      throw new Error(
        `no reference picture at ${referencePath}; run with UPDATE_RENDERING_REFERENCE=1, look at it, commit it`,
      );
    const reference = PNG.sync.read(readFileSync(referencePath));
    const differing =
      page.width === reference.width && page.height === reference.height
        ? pixelmatch(page.data, reference.data, null, page.width, page.height, { threshold: 0.1 })
        : Infinity;
    // Font rasterising may shift a few edge pixels between poppler builds; a changed label or layout moves thousands.
    if (differing / (page.width * page.height) >= 0.005) {
      const actualPath = referencePath.replace(/\.png$/, '.actual.png');
      writeFileSync(actualPath, PNG.sync.write(page));
      throw new Error(
        `page 1 in ${lang} differs from ${referencePath} in ${differing} pixels; what was drawn is at ${actualPath} for review`,
      );
    }
  });
});
