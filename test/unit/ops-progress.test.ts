import { doing, done, SAY_AFTER_MS, sayingTo } from '../../ops/progress';

/** The ops CLI says what it is doing once a step has lasted a second, and only then. */
describe('what the ops CLI says while it works', () => {
  const said: string[] = [];

  beforeAll(() => sayingTo((line) => said.push(line)));
  beforeEach(() => {
    jest.useFakeTimers();
    said.length = 0;
  });
  afterEach(() => {
    done();
    jest.useRealTimers();
  });

  it('when a step ends within a second, then nothing is said of it', () => {
    doing('connecting to the database');
    jest.advanceTimersByTime(SAY_AFTER_MS - 1);
    doing('signalling the review workflow of ws_1 and waiting until it records the decision');
    jest.advanceTimersByTime(SAY_AFTER_MS - 1);
    done();
    jest.advanceTimersByTime(10 * SAY_AFTER_MS);
    expect(said).toEqual([]);
  });

  it('when a step lasts a second, then it is said once, on its own line', () => {
    doing('connecting to the database');
    jest.advanceTimersByTime(SAY_AFTER_MS);
    doing('building the reports for 2026-10 and validating them with the official rules');
    jest.advanceTimersByTime(5 * SAY_AFTER_MS);
    expect(said).toEqual([
      'ops: connecting to the database…\n',
      'ops: building the reports for 2026-10 and validating them with the official rules…\n',
    ]);
  });
});
