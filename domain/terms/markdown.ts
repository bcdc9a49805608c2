import { TERM_GROUPS, termJsonPath, termPathFromRoot, termsOf, type Term, type TermGroup } from './table';

/**
 * The term table as the field table of docs/documents.md: per group, each
 * term with its JSON field, its UBL and CII paths from the root, whether
 * EN 16931 requires it and the rules that check it. Generated, never
 * edited by hand (`npm run docs:terms`; a unit test holds the page to it).
 */

function jsonCell(term: Term): string {
  if (term.readOnly) return 'read only: the price becomes the price of one unit';
  return term.computed ? `set by the service (\`${termJsonPath(term)}\` in the view)` : `\`${termJsonPath(term)}\``;
}

/** Where every CII path of a part starts, shortened in the table (the page's legend says so). */
const CII_ABBREVIATIONS: Record<string, string> = {
  'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement': 'Agreement',
  'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeDelivery': 'Delivery',
  'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement': 'Settlement',
  'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem': 'Line',
};

function abbreviated(path: string): string {
  const start = Object.keys(CII_ABBREVIATIONS).find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  return start ? `${CII_ABBREVIATIONS[start]}${path.slice(start.length)}` : path;
}

const pathCell = (path: string) => `\`${abbreviated(path)}\``;
const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

function groupTable(group: TermGroup): string {
  const rows = termsOf(group.name).map((term) =>
    [
      term.id,
      term.name,
      jsonCell(term),
      term.required ? '1' : '0',
      pathCell(termPathFromRoot(term, 'ubl')),
      pathCell(termPathFromRoot(term, 'cii')),
      term.rules.join(', '),
    ]
      .map(escapeCell)
      .join(' | '),
  );
  const title = group.id ? `${group.id} ${group.title}` : group.title;
  const repeats = group.repeats ? ' (repeats)' : '';
  return [
    `#### ${title}${repeats}`,
    '',
    '| BT | Term | JSON | Min | UBL | CII | Rules |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

export function termTableMarkdown(): string {
  const legend = `In the CII column, ${Object.entries(CII_ABBREVIATIONS)
    .map(([prefix, name]) => `\`${name}\` is \`${prefix}\``)
    .join(', ')}. Min is how often EN 16931 requires the term (0 or 1).`;
  return [legend, ...TERM_GROUPS.map(groupTable)].join('\n\n');
}
