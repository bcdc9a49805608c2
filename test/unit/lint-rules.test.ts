import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * The lint rules that keep the layers apart are part of the design; prove they
 * bite. ESLint runs as its own process (its config is an ES module, which
 * jest's sandbox cannot import), on code given through stdin.
 */
function ruleIds(code: string, filePath: string): string[] {
  const root = path.resolve(__dirname, '../..');
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'),
      '--stdin',
      '--stdin-filename',
      filePath,
      '--format',
      'json',
    ],
    { cwd: root, input: code, encoding: 'utf8' },
  );
  const [report] = JSON.parse(result.stdout) as { messages: { ruleId: string }[] }[];
  return report!.messages.map((message) => message.ruleId);
}

describe('lint rules', () => {
  it('when workflow code imports a Node built-in or the database, then lint fails', () => {
    const code = "import fs from 'node:fs';\nimport mongoose from 'mongoose';\nexport const used = [fs, mongoose];\n";
    expect(ruleIds(code, 'workflows/housekeeping.ts')).toEqual(['no-restricted-imports', 'no-restricted-imports']);
  });

  it('when a promise is left floating, then lint fails', () => {
    const code = 'export function run(): void {\n  Promise.resolve(1);\n}\n';
    expect(ruleIds(code, 'api/public/app.ts')).toContain('@typescript-eslint/no-floating-promises');
  });
});
