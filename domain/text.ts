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

/**
 * Text meant to stay on one line (a name, a number, a filename): XML-safe as
 * above, and no control character but tab (C0, DEL and C1, so no CR or LF)
 * and no Unicode line or paragraph separator. Wherever it is shown later (a
 * log line, an operator's table) it cannot start a line of its own.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this pattern is for
const LINE_BREAKING = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]/;

export function isSingleLineText(text: string): boolean {
  return isXmlSafe(text) && !LINE_BREAKING.test(text);
}

export const NOT_SINGLE_LINE_MESSAGE = 'must be one line: no control character but tab, no line separator, nothing XML cannot carry (U+FFFE/U+FFFF, an unpaired surrogate)';

/**
 * Stored text made safe to print on a terminal: line feed becomes `\n`, other
 * control characters (C0, DEL, C1), the line and paragraph separators and
 * the bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069)
 * become `\uXXXX`, so a value can neither start a row of its own, move the
 * cursor, nor reorder what is printed around it. Backslashes are left as
 * they are: escaping twice changes nothing, and JSON text (whose escapes
 * these are) passes through unharmed.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this pattern is for
const TERMINAL_UNSAFE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

export function escapeForTerminal(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (char) => (char === '\n' ? '\\n' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
