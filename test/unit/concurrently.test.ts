import { mapConcurrently } from '../../domain/concurrently';

describe('mapConcurrently', () => {
  it('when items take different times, then at most the limit run at once and the results keep the items’ order', async () => {
    let running = 0;
    let most = 0;
    const results = await mapConcurrently([30, 5, 20, 1, 10, 2], 3, async (ms, index) => {
      most = Math.max(most, (running += 1));
      await new Promise((resolve) => setTimeout(resolve, ms));
      running -= 1;
      return `${index}:${ms}`;
    });
    expect(results).toEqual(['0:30', '1:5', '2:20', '3:1', '4:10', '5:2']);
    expect(most).toBe(3);
  });

  it('when one item fails, then the whole call fails with its error', async () => {
    await expect(
      mapConcurrently([1, 2, 3], 2, (n) => (n === 2 ? Promise.reject(new Error('two')) : Promise.resolve(n))),
    ).rejects.toThrow('two');
  });
});
