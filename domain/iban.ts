/** IBAN structure and ISO 7064 mod 97 check; the input may carry spaces and lower case. */
export function normalizeIban(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

/**
 * How an IBAN may be written: country, check digits, 11 to 30 letters or
 * digits, single spaces between any of them (as printed in groups of four)
 * and either case. Every IBAN written so has the structure isValidIban
 * checks; its check digits must match besides.
 */
export const WRITTEN_IBAN = /^[A-Za-z]{2}[0-9]{2}(?: ?[A-Za-z0-9]){11,30}$/;

export function isValidIban(raw: string): boolean {
  const iban = normalizeIban(raw);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const numeric = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}
