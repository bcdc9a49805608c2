/**
 * Text that may reach XML (UBL, SBDH) or another system verbatim: XML 1.0
 * forbids C0 control characters other than tab, line feed and carriage
 * return, the non-characters U+FFFE and U+FFFF, and surrogate code units that
 * do not form a pair. Such text is refused at the edge, naming the field,
 * rather than written out broken or silently changed.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this pattern is for
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isXmlSafe(text: string): boolean {
  return !FORBIDDEN.test(text);
}

export const XML_UNSAFE_MESSAGE = 'contains a character XML cannot carry (a control character, U+FFFE/U+FFFF or an unpaired surrogate)';
