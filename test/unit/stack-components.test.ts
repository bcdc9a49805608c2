import { COMPONENTS } from '../../stack/components';
import { requireStartOrder } from '../../stack/embedded-stack';

describe("the embedded stack's table of components", () => {
  it('when the whole table runs, then every component starts after the ones it needs', () => {
    expect(() => requireStartOrder([...COMPONENTS])).not.toThrow();
  });

  it('when a component is declared before one it needs, then the stack refuses to start', () => {
    expect(() =>
      requireStartOrder([
        { name: 'worker', needs: ['temporal'] },
        { name: 'temporal', needs: [] },
      ]),
    ).toThrow('worker needs temporal started before it');
  });

  it('when one it needs does not run here (an address is configured), then the order holds without it', () => {
    expect(() => requireStartOrder([{ name: 'worker', needs: ['temporal', 'access-point'] }])).not.toThrow();
  });

  it('when each component declares its ports, then no port variable is claimed by two components', () => {
    for (const production of [true, false]) {
      const ctx = contextOf(production);
      const variables = COMPONENTS.filter((component) => component.runs(ctx)).flatMap((component) =>
        component.ports(ctx).map(([, variable]) => variable),
      );
      expect(variables.filter((variable, index) => variables.indexOf(variable) !== index)).toEqual([]);
      expect(variables).toContain(production ? 'API_BEHIND_FRONT_PORT' : 'PORT');
    }
  });
});

/** A stack that runs every component of its shape, for the port declarations (which read the configuration only). */
function contextOf(production: boolean) {
  // Every port variable at one number and two worker processes: the claims are told apart by variable, not by port.
  const config = new Proxy({}, { get: (_target, key) => (key === 'WORKER_PROCESSES' ? 2 : 1000) }) as never;
  const runs = { postgres: true, temporal: true, ferretdb: true, mail: true, validator: true };
  return {
    config,
    production,
    runs: { ...runs, accessPoint: true, peppolNetwork: true, api: true, worker: true },
  } as never;
}
