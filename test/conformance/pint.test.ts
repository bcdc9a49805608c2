import { officialExamples } from '../support/official-examples';
import { validateUbl } from '../support/peppol-validator';

/**
 * Peppol International (PINT) billing (issue 41): a document is judged by the
 * PINT rules of the jurisdiction its CustomizationID names (phive-rules-peppol
 * carries them), as KoSIT's scenarios route by it. The documents are the BIS
 * base example claiming each specialisation: the EU one passes PINT EU; the
 * others break their jurisdiction's rules, each finding named by its rule id.
 */

const base = officialExamples('peppol-bis').find(({ name }) => name === 'peppol-bis/base-example.xml')!.xml;
const claiming = (specialisation: string) =>
  base
    .replace(/<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, `<cbc:CustomizationID>urn:peppol:pint:billing-1@${specialisation}</cbc:CustomizationID>`)
    .replace(/<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, '<cbc:ProfileID>urn:peppol:bis:billing</cbc:ProfileID>');

it.each([
  ['eu-1', 'org.peppol.pint.eu:invoice:'],
  ['aunz-1', 'org.peppol.pint.aunz:invoice:'],
  ['sg-1', 'org.peppol.pint.sg:invoice:'],
  ['jp-1', 'org.peppol.pint.jp:invoice:'],
  ['my-1', 'org.peppol.pint.my:invoice:'],
])('when an invoice claims PINT %s, then that jurisdiction’s PINT rules judge it, naming every finding by rule id', async (specialisation, ruleSet) => {
  const [result] = await validateUbl([{ name: specialisation, xml: claiming(specialisation) }]);
  expect(result?.ruleSet).toMatch(new RegExp(`^${ruleSet.replace(/\./g, '\\.')}`));
  if (specialisation === 'eu-1') expect(result?.fatal).toEqual([]);
  for (const finding of [...(result?.fatal ?? []), ...(result?.warnings ?? [])]) expect(finding.rule).toMatch(/^[A-Za-z][\w.-]*$/);
});
