import { splitFindings, type OfficialFinding } from '../../../platform/official-validator';
import { z } from '../openapi';

/** What the official Peppol rules found, as the public validator and the document validation show it. */

export const ublFindingSchema = z
  .object({
    rule: z.string().openapi({
      description:
        'Rule id of the official artefacts (e.g. `BR-CO-16`, `PEPPOL-EN16931-R003`, `NL-R-001`); `UBL-XSD` for the schema',
      example: 'BR-CO-16',
    }),
    severity: z.enum(['fatal', 'warning']),
    location: z.string().openapi({
      description: 'XPath of the offending element (schematron rules) or line:column (schema)',
      example: '/:Invoice[1]/cac:LegalMonetaryTotal[1]',
    }),
    message: z.string(),
  })
  .openapi('UblFinding');

export const ruleSetIdSchema = z
  .string()
  .openapi({ description: 'The official rule set applied (phive id)', example: 'eu.peppol.bis3:2026.5' });

/** The findings as answers show them: fatal ones as `errors`, and `warnings`. */
export function findingsView(findings: OfficialFinding[]): { errors: OfficialFinding[]; warnings: OfficialFinding[] } {
  const { fatal, warnings } = splitFindings(findings);
  return { errors: fatal, warnings };
}
