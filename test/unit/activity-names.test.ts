import type { DuplicateActivityNames } from '../../activities';

/**
 * The worker registers activities by name, so two factories exporting one name would silently lose one of them.
 * activities/index.ts refuses that at compile time; these lines hold the check to what it must find (they are
 * type-checked by `npm test`'s tsc step, and the expectations below repeat them at run time).
 */
type Sending = () => { deliverByEmail(): Promise<void>; markSent(): Promise<void> };
type Receiving = () => { fileReceivedDocument(): Promise<void> };
type AlsoSending = () => { markSent(): Promise<void>; noteRetry(): Promise<void> };

type Clashing = DuplicateActivityNames<readonly [Sending, Receiving, AlsoSending]>;
type Apart = DuplicateActivityNames<readonly [Sending, Receiving]>;

describe('activity names exported twice', () => {
  it('when two factories export one name, then the check names it, and only it', () => {
    const clash: Clashing = 'markSent';
    // @ts-expect-error a name exported once is no duplicate
    const once: Clashing = 'noteRetry';
    expect([clash, once]).toEqual(['markSent', 'noteRetry']);
  });

  it('when every name is exported once, then the check finds none', () => {
    const none: [Apart] extends [never] ? 'none' : 'some' = 'none';
    expect(none).toBe('none');
  });
});
