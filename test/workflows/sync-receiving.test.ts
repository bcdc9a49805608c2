import { sharedStack } from '../support/test-stack';
import { RECEIVING_SCENARIOS, runReceivingScenario } from './receiving-scenarios';

const receiving = (name: string) =>
  runReceivingScenario(
    sharedStack().temporalAddress,
    RECEIVING_SCENARIOS.find((scenario) => scenario.name === name)!,
  );

/**
 * The receiving workflow against the embedded Temporal dev server, its activities stubbed: a registration, and
 * the operator's review of a participant id no proof covers, approved (then registered) or rejected (then failed),
 * the Peppol Directory listing that follows the registration, and the migration key given to the SML.
 */
describe('the receiving workflow', () => {
  it('when the plan has a proven participant to register, then it is registered, and its business card goes to the Peppol Directory after', async () => {
    const run = await receiving('registered-and-listed');
    expect(run.result).toBe('registered');
    expect(run.calls).toEqual([
      'registerReceiver 0208:0987654394',
      'recordReceivingOutcome registered 0208:0987654394',
      'syncBusinessCard 0208:0987654394',
    ]);
  });

  it('when the Directory refuses the business card, then that is recorded on the company and the company stays registered', async () => {
    const run = await receiving('listing-refused');
    expect(run.result).toBe('registered');
    expect(run.calls).toEqual([
      'syncBusinessCard 0208:0987654394',
      'recordBusinessCardFailure 0208:0987654394: the Peppol Directory answered HTTP 403',
    ]);
  });

  it('when the company asked for a migration key, then it is given to the SML; a refusal is said on the company, which stays registered', async () => {
    expect((await receiving('migration-key-prepared')).calls).toEqual(['prepareMigration']);
    const refused = await receiving('migration-key-refused');
    expect(refused.result).toBe('registered');
    expect(refused.calls).toEqual(['prepareMigration', 'recordMigrationFailure: the SML refused: NotFoundFault']);
  });

  it('when a listed participant is unregistered, then its Directory listing is dropped before the SML forgets it', async () => {
    const run = await receiving('unregistered-listing-dropped-first');
    expect(run.result).toBe('unregistered');
    expect(run.calls).toEqual([
      'syncBusinessCard 0208:0123456749',
      'unregisterReceiver 0208:0123456749',
      'recordReceivingOutcome unregistered 0208:0123456749',
    ]);
  });

  it('when the plan meets an identity no proof covers, then it waits for the operator, and an approval registers it', async () => {
    const run = await receiving('review-approved-then-registered');
    expect(run.result).toBe('registered');
    expect(run.calls).toEqual([
      'unregisterReceiver 0208:0123456749',
      'recordReceivingOutcome unregistered 0208:0123456749',
      'openParticipantReview',
      'recordReceivingOutcome awaiting_review 0208:0987654394',
      'recordParticipantDecision approve',
      'registerReceiver 0208:0987654394',
      'recordReceivingOutcome registered 0208:0987654394',
    ]);
    expect(run.statusAttribute).toBe('approved');
  });

  it('when the operator rejects it, then nothing is registered and the company’s receiving failed, saying why', async () => {
    const run = await receiving('review-rejected');
    expect(run.result).toBe('failed');
    expect(run.calls).toEqual([
      'openParticipantReview',
      'recordReceivingOutcome awaiting_review 0208:0987654394',
      'recordParticipantDecision reject',
      'recordReceivingOutcome failed 0208:0987654394',
    ]);
    expect(run.statusAttribute).toBe('rejected');
  });
});
