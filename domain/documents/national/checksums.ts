/**
 * Check-digit tests exactly as the national rules of the Peppol schematron
 * compute them (their own functions, which differ in details from the
 * identifier checks of domain/peppol/ids.ts).
 */

const ZERO = 48;
const digitAt = (value: string, index: number) => value.charCodeAt(index) - ZERO;
const isDigit = (value: string, index: number) => {
  const digit = digitAt(value, index);
  return digit >= 0 && digit <= 9;
};

/** Greek TIN (AFM): 9 digits, the last = (Σ digit × 2^(9−position)) mod 11 mod 10 (u:TinVerification). */
export function isGreekTin(value: string): boolean {
  if (value.length < 9) return false;
  let sum = 0;
  for (let index = 0; index < 9; index++) {
    if (!isDigit(value, index)) return false;
    if (index < 8) sum += digitAt(value, index) * 2 ** (8 - index);
  }
  return (sum % 11) % 10 === digitAt(value, 8);
}

/** Norwegian organisation number: 9 digits, mod 11 with weights 3 2 7 6 5 4 3 2, a check of 10 is invalid (u:mod11). */
export function isNorwegianOrgNumber(value: string): boolean {
  if (value.length !== 9) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  let sum = 0;
  for (let index = 0; index < 9; index++) {
    if (!isDigit(value, index)) return false;
    if (index < 8) sum += digitAt(value, index) * weights[index]!;
  }
  return Number(value) > 0 && (11 - (sum % 11)) % 11 === digitAt(value, 8);
}

/** Swedish organisation number: digits only, Luhn over the first 9 gives the 10th (u:checkSEOrgnr; the length is SE-R-004's). */
export function isSwedishOrgNumber(value: string): boolean {
  if (value.length < 10) return false;
  let sum = 0;
  for (let index = 0; index < value.length; index++) {
    if (!isDigit(value, index)) return false;
    if (index < 9) {
      const digit = digitAt(value, index);
      // From the right of the first nine digits, every other one starting with the rightmost is doubled.
      const doubled = (8 - index) % 2 === 0 ? digit * 2 : digit;
      sum += doubled > 9 ? doubled - 9 : doubled;
    }
  }
  return (10 - (sum % 10)) % 10 === digitAt(value, 9);
}

/** What XPath `number()` accepts (xs:double lexical form, surrounding spaces allowed): the schematron's "is numeric". */
const XPATH_NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$|^\s*[+-]?INF\s*$/;
export const isXpathNumber = (value: string) => XPATH_NUMBER.test(value);
