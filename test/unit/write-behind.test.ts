import { writeBehind } from '../../services/write-behind';

/** A write that records its batches and finishes when told to. */
function recorder() {
  const batches: number[][] = [];
  const finish: (() => void)[] = [];
  const write = (items: number[]) => {
    batches.push(items);
    return new Promise<void>((resolve) => finish.push(resolve));
  };
  return { batches, finish, write };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A write that records its batches and finishes at once. */
const into = (batches: number[][]) => (items: number[]) => {
  batches.push(items);
  return Promise.resolve();
};

describe('writing behind the caller', () => {
  it('when items come while a write is in flight, then they go out together in the next write', async () => {
    const { batches, finish, write } = recorder();
    const behind = writeBehind(write, () => undefined, { lingerMs: 0 });
    behind.add(1);
    await tick();
    expect(batches).toEqual([[1]]);
    behind.add(2);
    behind.add(3);
    finish.shift()!();
    await tick();
    expect(batches).toEqual([[1], [2, 3]]);
    finish.shift()!();
    await behind.flush();
  });

  it('when no linger is given, then the items of its default 250 ms go out in one write, and not before it ends', async () => {
    jest.useFakeTimers();
    try {
      const batches: number[][] = [];
      const behind = writeBehind(into(batches), () => undefined);
      behind.add(1);
      jest.advanceTimersByTime(100);
      behind.add(2);
      expect(batches).toEqual([]);
      jest.advanceTimersByTime(150);
      await Promise.resolve();
      expect(batches).toEqual([[1, 2]]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('when flushed during a linger, then everything is written at once, without waiting it out', async () => {
    const batches: number[][] = [];
    const behind = writeBehind(into(batches), () => undefined, { lingerMs: 60_000 });
    behind.add(1);
    behind.add(2);
    await behind.flush();
    expect(batches).toEqual([[1, 2]]);
  });

  it('when a write fails, then its items are reported and later items are still written', async () => {
    const failed: number[][] = [];
    const batches: number[][] = [];
    let calls = 0;
    const behind = writeBehind(
      (items: number[]) =>
        (calls += 1) === 1 ? Promise.reject(new Error('database unavailable')) : into(batches)(items),
      (_err, items) => failed.push(items),
      { lingerMs: 0 },
    );
    behind.add(1);
    await behind.flush();
    behind.add(2);
    await behind.flush();
    expect(failed).toEqual([[1]]);
    expect(batches).toEqual([[2]]);
  });
});
