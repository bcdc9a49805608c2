import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { z } from 'zod';

import { peppolIdProblem, serviceProviderParticipantProblem } from '../../domain/peppol/ids';

/**
 * Who is on the local Peppol network stand-in: participants.json beside this
 * file, as data. Each participant is published in the local SML and served by
 * the local SMP with one endpoint (the local access point) per document kind.
 */

export const PARTICIPANTS_FILE = path.join(__dirname, 'participants.json');

const registrySchema = z.object({
  participants: z.array(
    z.object({
      /** A business (EAS scheme), or a service provider by its SPID (`0242:000002`), which receives Message Level Statuses. */
      id: z
        .string()
        .refine(
          (id) => peppolIdProblem(id) === undefined || serviceProviderParticipantProblem(id) === undefined,
          'expected a valid Peppol participant id such as 0208:0987654394, or 0242:<SPID>',
        ),
      name: z.string().min(1),
      /**
       * BIS Billing 3.0 `invoice`, `credit_note` (and `cii`); PINT A-NZ `pint_invoice`, `pint_credit_note`; replies `invoice_response`,
       * `mls`; the Peppol reports `tsr`, `eusr` (for a reporting receiver such as OpenPeppol's).
       */
      documents: z
        .array(
          z.enum([
            'invoice',
            'credit_note',
            'cii',
            'pint_invoice',
            'pint_credit_note',
            'invoice_response',
            'mls',
            'tsr',
            'eusr',
          ]),
        )
        .min(1),
      /** Its access point refuses every message to it with PEPPOL:NOT_SERVICED: a final AS4 error, on purpose. */
      refusedByAccessPoint: z.boolean().default(false),
      /** Which access point serves it: the stand-in's (phase4, like ours) or the independent one (Oxalis). */
      accessPoint: z.enum(['stand-in', 'oxalis']).default('stand-in'),
    }),
  ),
});

export type LocalParticipant = z.output<typeof registrySchema>['participants'][number];

export async function readParticipants(file = PARTICIPANTS_FILE): Promise<LocalParticipant[]> {
  const parsed = registrySchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  return parsed.data.participants;
}
