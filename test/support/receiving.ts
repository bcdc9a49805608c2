import { randomInt } from 'node:crypto';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { belgianSeller, validFixtures } from '../fixtures/documents';

/** A Belgian enterprise number nobody else in the tests uses, as a Peppol id (0208, mod 97 check). */
export function uniqueBelgianPeppolId(): string {
  const base = `0${String(randomInt(10_000_000)).padStart(7, '0')}`;
  const check = 97 - (Number(base) % 97);
  return `0208:${base}${String(check).padStart(2, '0')}`;
}

/** UBL the example seller writes to `buyerPeppolId`: one of the validated fixtures, converted by the service's own code. */
export function ublTo(fixtureName: string, buyerPeppolId: string): string {
  const fixture = validFixtures.find((candidate) => candidate.name === fixtureName)!.body;
  const converted = convertDocument(documentInputSchema.parse({ ...fixture, to: { ...(fixture.to as object), peppol_id: buyerPeppolId } }), belgianSeller);
  if (!converted.ok) throw new Error(`fixture ${fixtureName} is refused`);
  return converted.ubl;
}

/** An amount as a UBL document states it (the first element of that name). */
export const statedAmount = (ubl: string, element: string) => new RegExp(`<cbc:${element}[^>]*>([^<]+)</cbc:${element}>`).exec(ubl)![1]!;

export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
