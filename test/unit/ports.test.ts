import { freePort } from '../../stack/ports';

describe('picking ports for a stack', () => {
  it('when many ports are picked before any is bound, then none is handed out twice', async () => {
    // 300 random picks from 12,768 ports would repeat one about three times over if picks were independent.
    const ports = [];
    for (let i = 0; i < 300; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
