import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/**
 * The SDK is published on its own: what it ships (sdk/src) imports only its
 * own files, Node's built-ins and the dependencies its package.json names,
 * never the service's folders.
 */
const SDK = path.resolve(__dirname, '../../../sdk');
const manifest = JSON.parse(readFileSync(path.join(SDK, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

describe('the SDK package boundary', () => {
  it('when its sources are read, then every import stays inside sdk/src or names a built-in or a declared dependency', () => {
    const outside = sourceFiles(path.join(SDK, 'src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import|require\()\s*'([^']+)'/g)]
        .map((match) => match[1]!)
        .filter((target) => {
          if (target.startsWith('.'))
            return !path.resolve(path.dirname(file), target).startsWith(path.join(SDK, 'src'));
          const name = target.startsWith('@') ? target.split('/').slice(0, 2).join('/') : target.split('/')[0]!;
          return !builtinModules.includes(name.replace(/^node:/, '')) && !(name in manifest.dependencies);
        })
        .map((target) => `${path.relative(SDK, file)} → ${target}`),
    );
    expect(outside).toEqual([]);
  });
});
