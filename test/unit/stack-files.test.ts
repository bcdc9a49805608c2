import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { KYC_KEY_FILE, stackKey, WEBHOOK_KEY_FILE, webhookKey } from '../../stack/keys';
import { createFilesPrivately, privateDirectory } from '../../stack/private-files';

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe("the embedded stack's files are its user's only", () => {
  let root: string;
  let umask: number;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'einvoice-private-'));
    umask = process.umask();
  });
  afterEach(async () => {
    process.umask(umask);
    await rm(root, { recursive: true, force: true });
  });

  it('when a data directory was made open by an earlier version, then starting takes group and others off every file and directory, and leaves what a link points at alone', async () => {
    const dataDir = path.join(root, 'data');
    await mkdir(path.join(dataDir, 'ferretdb', 'sqlite'), { recursive: true });
    await writeFile(path.join(dataDir, 'ferretdb', 'sqlite', 'einvoice.sqlite'), 'db');
    await writeFile(path.join(dataDir, 'webhook-secret.key'), 'key');
    const outside = path.join(root, 'outside.txt');
    await writeFile(outside, 'not the stack’s');
    await symlink(outside, path.join(dataDir, 'link'));
    for (const entry of [dataDir, path.join(dataDir, 'ferretdb'), path.join(dataDir, 'ferretdb', 'sqlite')])
      await chmod(entry, 0o755);
    for (const entry of [
      path.join(dataDir, 'ferretdb', 'sqlite', 'einvoice.sqlite'),
      path.join(dataDir, 'webhook-secret.key'),
      outside,
    ])
      await chmod(entry, 0o644);

    await privateDirectory(dataDir);

    for (const entry of [dataDir, path.join(dataDir, 'ferretdb'), path.join(dataDir, 'ferretdb', 'sqlite')])
      expect(await modeOf(entry)).toBe(0o700);
    for (const entry of [
      path.join(dataDir, 'ferretdb', 'sqlite', 'einvoice.sqlite'),
      path.join(dataDir, 'webhook-secret.key'),
    ])
      expect(await modeOf(entry)).toBe(0o600);
    expect(await modeOf(outside)).toBe(0o644);
  });

  it('when the stack creates files, then they are 0600 and directories 0700, for its children too', async () => {
    createFilesPrivately();
    await privateDirectory(path.join(root, 'new', 'data'));
    expect(await modeOf(path.join(root, 'new', 'data'))).toBe(0o700);
    await writeFile(path.join(root, 'new', 'data', 'written.log'), 'x');
    expect(await modeOf(path.join(root, 'new', 'data', 'written.log'))).toBe(0o600);
  });

  it('when a key is needed, then it is made once in a directory only its owner enters, as a file only its owner reads; two starts at once get the same key', async () => {
    const keysDir = path.join(root, 'keys');
    const [first, second] = await Promise.all([stackKey(keysDir, KYC_KEY_FILE), stackKey(keysDir, KYC_KEY_FILE)]);
    expect(Buffer.from(first, 'base64')).toHaveLength(32);
    expect(second).toBe(first);
    expect(await stackKey(keysDir, KYC_KEY_FILE)).toBe(first);
    expect(await modeOf(keysDir)).toBe(0o700);
    expect(await modeOf(path.join(keysDir, KYC_KEY_FILE))).toBe(0o600);
    expect(await readdir(keysDir)).toEqual([KYC_KEY_FILE]);
    expect(await readFile(path.join(keysDir, KYC_KEY_FILE), 'utf8')).toBe(`${first}\n`);
  });

  it('when a data directory holds the webhook key an earlier version made there, then it keeps using it; a new one uses the key outside it', async () => {
    const [oldDir, newDir, keysDir] = [path.join(root, 'old'), path.join(root, 'new'), path.join(root, 'keys')];
    await mkdir(oldDir);
    await mkdir(newDir);
    await writeFile(path.join(oldDir, WEBHOOK_KEY_FILE), 'b2xkIGtleQ==\n');
    expect(await webhookKey(oldDir, keysDir)).toBe('b2xkIGtleQ==');
    const made = await webhookKey(newDir, keysDir);
    expect(made).toBe((await readFile(path.join(keysDir, WEBHOOK_KEY_FILE), 'utf8')).trim());
    expect(await readdir(newDir)).toEqual([]);
  });
});
