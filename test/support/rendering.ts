import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { parse, type DefaultTreeAdapterMap } from 'parse5';

import { childNamed, parseXml, type XmlElement } from '../../domain/xml-tree';

/**
 * Reading what the renderer drew, with Debian's poppler-utils (`pdftotext`, `pdftoppm`): the PDF
 * is read by a program that did not write it.
 */

const run = promisify(execFile);
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

/** A PDF's text, every run of white space one space (a name the layout wrapped reads as one line) (no ligature is undone: a letter the PDF does not carry as text is missing). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const child = run('pdftotext', ['-enc', 'UTF-8', '-', '-'], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  child.child.stdin?.end(pdf);
  return (await child).stdout.replace(/\s+/g, ' ');
}

/** What a reader of an HTML page sees: its text, without its style and script, every run of white space one space. */
export function htmlText(html: string): string {
  const texts: string[] = [];
  const walk = (node: DefaultTreeAdapterMap['parentNode'] | DefaultTreeAdapterMap['childNode']) => {
    if (node.nodeName === '#text') texts.push((node as DefaultTreeAdapterMap['textNode']).value);
    if (node.nodeName === 'style' || node.nodeName === 'script' || node.nodeName === 'title' || !('childNodes' in node))
      return;
    for (const child of node.childNodes) walk(child);
  };
  walk(parse(html));
  return texts.join(' ').replace(/\s+/g, ' ');
}

/** One page of a PDF as a PNG, `dpi` dots per inch. */
export async function pdfPage(pdf: Buffer, page: number, dpi: number): Promise<Buffer> {
  const child = run('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-'], {
    encoding: 'buffer',
    maxBuffer: 32 * 1024 * 1024,
  });
  child.child.stdin?.end(pdf);
  return (await child).stdout;
}

const partyName = (root: XmlElement, role: 'AccountingSupplierParty' | 'AccountingCustomerParty') => {
  const party = childNamed(childNamed(root, CAC, role) ?? root, CAC, 'Party');
  const legal = party && childNamed(party, CAC, 'PartyLegalEntity');
  return (legal && childNamed(legal, CBC, 'RegistrationName')?.text) ?? '';
};

/** An amount as the English rendering prints it: thousands grouped, two decimals. */
const englishAmount = (amount: string) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(amount));
/** A date as the English rendering prints it: `13 November 2017`. */
const englishDate = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

/**
 * What a reader must find on the page, read straight from the UBL: its number, issue date, both
 * parties' legal names and the amount due (English number and date formats).
 */
export function essentialsOf(ubl: string): {
  number: string;
  issueDate: string;
  seller: string;
  buyer: string;
  payable: string;
} {
  const root = parseXml(ubl);
  const monetary = childNamed(root, CAC, 'LegalMonetaryTotal');
  return {
    number: childNamed(root, CBC, 'ID')?.text ?? '',
    issueDate: englishDate(childNamed(root, CBC, 'IssueDate')?.text ?? 'NaN'),
    seller: partyName(root, 'AccountingSupplierParty').replace(/\s+/g, ' ').trim(),
    buyer: partyName(root, 'AccountingCustomerParty').replace(/\s+/g, ' ').trim(),
    payable: englishAmount((monetary && childNamed(monetary, CBC, 'PayableAmount')?.text) ?? 'NaN'),
  };
}
