import { z } from 'zod';

import { readBusinessCard, type BusinessCard } from '../../domain/peppol/directory';
import { PARTICIPANT_SCHEME } from '../../domain/peppol/sml';
import { identifierOfSegment } from '../../domain/peppol/smp';
import type { SmlRegistrations, SmpOwner } from './sml-registrations';
import { readStateFile, writeStateFile } from './state-file';

/**
 * The stand-in Peppol Directory: what the Directory's indexer does with an
 * SMP's notice, and a search over what it indexed. An SMP PUTs a participant
 * id; the Directory finds the participant's SMP through the SML, reads the
 * business card the SMP serves at `/businesscard/{participant id}` and keeps
 * it, owned by the certificate that asked; only that certificate may DELETE
 * it again. Unlike the real Directory, which queues the work and answers at
 * once (so a card it cannot read is lost without a word), the stand-in reads
 * the card before it answers and says what went wrong: the tests see it.
 * Kept in DATA_DIR/peppol-network/directory.json (state-file.ts).
 */

const fileSchema = z.object({
  cards: z.array(
    z.object({
      participant: z.string(),
      entities: z.array(
        z.object({
          name: z.string(),
          country: z.string(),
          identifiers: z.array(z.object({ scheme: z.string(), value: z.string() })),
          registrationDate: z.string().optional(),
        }),
      ),
      owner: z.object({ subject: z.string(), fingerprint: z.string() }),
      indexedAt: z.string(),
    }),
  ),
});
type Entry = z.output<typeof fileSchema>['cards'][number];

/** What the indexer answers: an HTTP status and a line saying why. */
export interface IndexerAnswer {
  status: number;
  message: string;
}

/** A match as the Directory's JSON search API (`/search/1.0/json`) lists it. */
export interface DirectoryMatch {
  participantID: { scheme: string; value: string };
  entities: {
    name: { name: string }[];
    countryCode: string;
    identifiers: { scheme: string; value: string }[];
    regDate?: string;
  }[];
}

const sameValue = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The participant value of a full id (`iso6523-actorid-upis::0208:0123456749`), when it is of the Peppol scheme. */
function participantValue(fullId: string): string | undefined {
  const id = identifierOfSegment(fullId.trim());
  return id && id.scheme.toLowerCase() === PARTICIPANT_SCHEME ? id.value : undefined;
}

export class StandInPeppolDirectory {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly registrations: SmlRegistrations,
    private cards: Entry[],
  ) {}

  static async open(file: string, registrations: SmlRegistrations): Promise<StandInPeppolDirectory> {
    const state = await readStateFile(file, fileSchema, { cards: [] }, 'a stand-in Peppol Directory file');
    return new StandInPeppolDirectory(file, registrations, state.cards);
  }

  /** PUT /indexer/1.0/ with a participant id as the body. */
  index(fullId: string, caller: SmpOwner): Promise<IndexerAnswer> {
    return this.serially(async () => {
      const value = participantValue(fullId);
      if (!value)
        return {
          status: 400,
          message: `'${fullId.trim()}' is not a participant id of the scheme ${PARTICIPANT_SCHEME}`,
        };
      const smp = this.registrations.smpOf(value);
      if (!smp)
        return { status: 404, message: `${value} is not registered in the SML, so no SMP serves its business card` };
      const url = `${smp.logicalAddress.replace(/\/+$/, '')}/businesscard/${encodeURIComponent(`${PARTICIPANT_SCHEME}::${value}`)}`;
      let response: Response;
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      } catch (err) {
        return {
          status: 502,
          message: `the SMP at ${url} could not be reached: ${String((err as Error).cause ?? err)}`,
        };
      }
      if (!response.ok)
        return {
          status: 404,
          message: `the SMP answered HTTP ${response.status} for ${url}: no business card to index`,
        };
      let entities: BusinessCard[];
      try {
        entities = readBusinessCard(await response.text());
      } catch (err) {
        return { status: 422, message: `the SMP's answer at ${url} is not a business card: ${(err as Error).message}` };
      }
      if (!entities.every((entity) => sameValue(entity.participant, value)))
        return { status: 422, message: `the business card at ${url} is about another participant` };
      const entry: Entry = {
        participant: value,
        entities: entities.map(({ name, country, identifiers, registrationDate }) => ({
          name,
          country,
          identifiers,
          ...(registrationDate && { registrationDate }),
        })),
        owner: caller,
        indexedAt: new Date().toISOString(),
      };
      await this.save([...this.cards.filter((card) => !sameValue(card.participant, value)), entry]);
      return { status: 204, message: `indexed ${value} (${entities.map((entity) => entity.name).join(', ')})` };
    });
  }

  /** DELETE /indexer/1.0/{participant id}: only the certificate that indexed it may remove it. */
  remove(fullId: string, caller: SmpOwner): Promise<IndexerAnswer> {
    return this.serially(async () => {
      const value = participantValue(fullId);
      if (!value)
        return { status: 400, message: `'${fullId}' is not a participant id of the scheme ${PARTICIPANT_SCHEME}` };
      const card = this.cards.find((entry) => sameValue(entry.participant, value));
      if (!card) return { status: 204, message: `${value} was not indexed` };
      if (card.owner.fingerprint !== caller.fingerprint)
        return { status: 403, message: `${value} was indexed by ${card.owner.subject}, not by ${caller.subject}` };
      await this.save(this.cards.filter((entry) => entry !== card));
      return { status: 204, message: `removed ${value}` };
    });
  }

  /** Cards whose participant, name or identifiers contain the query (case-insensitive); every card for an empty query. */
  search(query: string): DirectoryMatch[] {
    const q = query.trim().toLowerCase();
    const matches = (card: Entry) =>
      card.participant.toLowerCase().includes(q) ||
      card.entities.some(
        (entity) =>
          entity.name.toLowerCase().includes(q) ||
          entity.identifiers.some((identifier) => identifier.value.toLowerCase().includes(q)),
      );
    return this.cards.filter(matches).map((card) => ({
      participantID: { scheme: PARTICIPANT_SCHEME, value: card.participant },
      entities: card.entities.map((entity) => ({
        name: [{ name: entity.name }],
        countryCode: entity.country,
        identifiers: entity.identifiers,
        ...(entity.registrationDate && { regDate: entity.registrationDate }),
      })),
    }));
  }

  private serially(work: () => Promise<IndexerAnswer>): Promise<IndexerAnswer> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async save(next: Entry[]): Promise<void> {
    await writeStateFile(this.file, { cards: next });
    this.cards = next;
  }
}
