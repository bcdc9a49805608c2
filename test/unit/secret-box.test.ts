import { keyIdOf, newSecretKey, SecretBox } from '../../domain/secret-box';

describe('sealing bytes under a named key', () => {
  const content = Buffer.from('%PDF-1.7 an identity document');

  it('when bytes are sealed, then they are not readable, name the key that sealed them, and open only with that key and the same context', () => {
    const key = newSecretKey();
    const box = new SecretBox(key);
    const sealed = box.sealBytes(content, 'kyb_one');
    expect(sealed.includes(content.subarray(0, 8))).toBe(false);
    expect(box.keyId).toBe(keyIdOf(Buffer.from(key, 'base64')));
    expect(box.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(box.openBytes(sealed, box.keyId, 'kyb_one').equals(content)).toBe(true);
    expect(box.sealBytes(content, 'kyb_one').equals(sealed)).toBe(false);
    // Moved to another row, or changed by one byte, it does not open.
    expect(() => box.openBytes(sealed, box.keyId, 'kyb_two')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => box.openBytes(tampered, box.keyId, 'kyb_one')).toThrow();
    const other = new SecretBox(newSecretKey());
    expect(() => other.openBytes(sealed, box.keyId, 'kyb_one')).toThrow(/neither the current nor the previous key/);
  });

  it('when the key is rotated, then the previous key still opens what it sealed, new seals use the current key, and without the previous key the old seals stay shut', () => {
    const [previousKey, currentKey] = [newSecretKey(), newSecretKey()];
    const before = new SecretBox(previousKey);
    const sealedBefore = before.sealBytes(content, 'kyb_one');
    const rotating = new SecretBox(currentKey, previousKey);
    expect(rotating.keyId).toBe(new SecretBox(currentKey).keyId);
    expect(rotating.holds(before.keyId) && rotating.holds(rotating.keyId)).toBe(true);
    expect(rotating.openBytes(sealedBefore, before.keyId, 'kyb_one').equals(content)).toBe(true);
    const sealedNow = rotating.sealBytes(content, 'kyb_one');
    expect(() => before.openBytes(sealedNow, rotating.keyId, 'kyb_one')).toThrow();
    const after = new SecretBox(currentKey);
    expect(after.holds(before.keyId)).toBe(false);
    expect(after.openBytes(sealedNow, after.keyId, 'kyb_one').equals(content)).toBe(true);
    expect(() => after.openBytes(sealedBefore, before.keyId, 'kyb_one')).toThrow(
      /neither the current nor the previous key/,
    );
  });

  it('when a previous key is not 32 bytes, then the box is refused', () => {
    expect(() => new SecretBox(newSecretKey(), Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
