import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets kept encrypted at rest (webhook signing secrets): AES-256-GCM under
 * a 32-byte key from configuration, a fresh nonce per secret, stored as
 * `v1:<nonce>:<tag>:<ciphertext>` in base64url. A stored value is useless
 * without the key, and tampering with it fails decryption.
 */

export class SecretBox {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    this.key = Buffer.from(keyBase64, 'base64');
    if (this.key.length !== 32) throw new Error('the secret key must be 32 bytes, base64-encoded');
  }

  seal(secret: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', nonce, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
  }

  open(sealed: string): string {
    const [version, nonce, tag, ciphertext] = sealed.split(':');
    if (version !== 'v1' || !nonce || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** A new key for SecretBox, base64 (the embedded stack makes one per data directory). */
export const newSecretKey = () => randomBytes(32).toString('base64');
