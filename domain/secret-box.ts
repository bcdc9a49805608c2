import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * What is kept encrypted at rest: webhook signing secrets (text) and KYC
 * document content (bytes). AES-256-GCM under a 32-byte key from
 * configuration, a fresh nonce per seal; a stored value is useless without
 * the key, and tampering with it fails the open.
 *
 * Text is stored as `v1:<nonce>:<tag>:<ciphertext>` in base64url and opens
 * under the current key. Bytes are `<nonce><tag><ciphertext>`, bound to a
 * context (the row they belong to, so they cannot be moved to another one),
 * and their owner keeps beside them the id of the key that sealed them
 * (`keyId`). A box may hold the previous key too, which opens bytes but never
 * seals: after a rotation, what it sealed stays readable until it is sealed
 * again under the current key.
 */

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A key's id: the first 8 bytes of its SHA-256, in hex. It names the key and tells nothing of it.
 * @internal
 */
export const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest().subarray(0, 8).toString('hex');

function decodeKey(keyBase64: string): Buffer {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes, base64-encoded');
  return key;
}

function encrypt(key: Buffer, plain: Buffer, context?: string) {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { nonce, tag: cipher.getAuthTag(), ciphertext };
}

function decrypt(
  key: Buffer,
  { nonce, tag, ciphertext }: { nonce: Buffer; tag: Buffer; ciphertext: Buffer },
  context?: string,
): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

export class SecretBox {
  /** The id of the key that seals. */
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(keyBase64: string, previousKeyBase64?: string) {
    const key = decodeKey(keyBase64);
    this.keyId = keyIdOf(key);
    this.keys.set(this.keyId, key);
    if (previousKeyBase64 !== undefined) {
      const previous = decodeKey(previousKeyBase64);
      this.keys.set(keyIdOf(previous), previous);
    }
  }

  private get key(): Buffer {
    return this.keys.get(this.keyId)!;
  }

  seal(secret: string): string {
    const { nonce, tag, ciphertext } = encrypt(this.key, Buffer.from(secret, 'utf8'));
    return ['v1', ...[nonce, tag, ciphertext].map((part) => part.toString('base64url'))].join(':');
  }

  open(sealed: string): string {
    const [version, nonce, tag, ciphertext] = sealed.split(':');
    if (version !== 'v1' || !nonce || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const parts = {
      nonce: Buffer.from(nonce, 'base64url'),
      tag: Buffer.from(tag, 'base64url'),
      ciphertext: Buffer.from(ciphertext, 'base64url'),
    };
    return decrypt(this.key, parts).toString('utf8');
  }

  /** Seals bytes under the current key (`keyId`), bound to `context`. */
  sealBytes(plain: Buffer, context: string): Buffer {
    const { nonce, tag, ciphertext } = encrypt(this.key, plain, context);
    return Buffer.concat([nonce, tag, ciphertext]);
  }

  /** Whether this box holds the key with that id (the current or the previous one). */
  holds(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  /** Opens bytes sealed under the key `keyId` with the same `context`. */
  openBytes(sealed: Buffer, keyId: string, context: string): Buffer {
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`sealed under key ${keyId}, which is neither the current nor the previous key`);
    if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new Error('not sealed bytes');
    const parts = {
      nonce: sealed.subarray(0, NONCE_BYTES),
      tag: sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES),
      ciphertext: sealed.subarray(NONCE_BYTES + TAG_BYTES),
    };
    return decrypt(key, parts, context);
  }
}

/** A new key for SecretBox, base64 (the embedded stack makes its keys with it). */
export const newSecretKey = () => randomBytes(32).toString('base64');
