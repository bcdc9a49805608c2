import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The imports run one way (docs/architecture.md): api → services →
 * platform/store/domain; worker → activities → services; workflows →
 * workflows/shared and activity types; services start workflows through
 * platform/workflow-port.ts; the MCP server (mcp/) is a client: it calls the
 * API through the SDK and reads only the API's contract (api/contract/). The
 * API's three servers (api/public/, api/intake/, api/smp/) share only api/http/
 * and api/contract/. Type-only imports count too: a circle of types
 * is still a circle to read.
 */

const ROOT = path.resolve(__dirname, '../..');
const LAYERS = [
  'api',
  'services',
  'platform',
  'store',
  'domain',
  'workflows',
  'activities',
  'worker',
  'ops',
  'stack',
  'mcp',
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** Each file's imports of this repository's own files, as paths relative to the root. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of LAYERS.flatMap((layer) => sourceFiles(path.join(ROOT, layer)))) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import|require\()\s*'(\.[^']+)'/g)].map((match) => {
      const target = path.resolve(path.dirname(file), match[1]!);
      const asFile = [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => {
        try {
          return statSync(candidate).isFile();
        } catch {
          return false;
        }
      });
      return path.relative(ROOT, asFile ?? target);
    });
    graph.set(
      path.relative(ROOT, file),
      targets.filter((target) => target.endsWith('.ts')),
    );
  }
  return graph;
}

/** Every circle of imports, each as the files around it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(trail.slice(trail.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('the direction of imports', () => {
  const graph = importGraph();
  const importsOf = (folder: string) =>
    [...graph]
      .filter(([file]) => file.startsWith(`${folder}/`))
      .flatMap(([file, targets]) => targets.map((target) => `${file} → ${target}`));

  it('when the source is read, then no file reaches itself through its imports', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('when services start workflows, then they do it through the port: no service imports workflow code', () => {
    expect(importsOf('services').filter((arrow) => /→ workflows\/(?!shared\.ts$)/.test(arrow))).toEqual([]);
  });

  it('when workflows import, then only workflows, pure domain code and the activities (for their types)', () => {
    expect(importsOf('workflows').filter((arrow) => !/→ (workflows|activities|domain)\//.test(arrow))).toEqual([]);
  });

  it('when domain code imports, then only domain code', () => {
    expect(importsOf('domain').filter((arrow) => !/→ domain\//.test(arrow))).toEqual([]);
  });

  it("when the MCP server imports, then only its own files, the SDK, the API's contract (for its schemas) and domain code; and nothing imports it", () => {
    expect(importsOf('mcp').filter((arrow) => !/→ (mcp\/|sdk\/src\/|api\/contract\/|domain\/)/.test(arrow))).toEqual(
      [],
    );
    expect(
      [...graph].flatMap(([file, targets]) =>
        file.startsWith('mcp/') ? [] : targets.filter((target) => target.startsWith('mcp/')),
      ),
    ).toEqual([]);
  });

  it("when the API's contract imports, then no server's code: the schemas stand without a route", () => {
    expect(importsOf('api/contract').filter((arrow) => /→ api\/(public|intake|smp)\//.test(arrow))).toEqual([]);
  });

  it('when one of the three servers imports, then none of the other two: each stands on the shared plumbing and the contract', () => {
    const servers = ['public', 'intake', 'smp'];
    const crossing = servers.flatMap((server) =>
      importsOf(`api/${server}`).filter((arrow) =>
        servers.some((other) => other !== server && arrow.includes(`→ api/${other}/`)),
      ),
    );
    expect(crossing).toEqual([]);
  });
});
