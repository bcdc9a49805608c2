/**
 * Text that may reach XML (UBL, SBDH) or another system verbatim: XML 1.0
 * forbids C0 control characters other than tab, line feed and carriage
 * return, the non-characters U+FFFE and U+FFFF, and surrogate code units that
 * do not form a pair. Such text is refused at the edge, naming the field,
 * rather than written out broken or silently changed.
 *
 * The rules are written once, as the body of a character class, and read
 * with the `u` flag (where a surrogate range matches only an unpaired half):
 * the same expressions check a value and are the `pattern` the OpenAPI
 * description states for it, so a value the description allows is one the
 * server takes.
 */
const XML_FORBIDDEN = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uD800-\\uDFFF\\uFFFE\\uFFFF';

/**
 * What text meant to stay on one line (a name, a number, a filename) may not
 * hold beyond that: no control character but tab (C0, DEL and C1, so no CR
 * or LF) and no Unicode line or paragraph separator. Wherever it is shown
 * later (a log line, an operator's table) it cannot start a line of its own.
 */
const LINE_BREAKING = '\\u0000-\\u0008\\u000A-\\u001F\\u007F-\\u009F\\u2028\\u2029';

/** Text of the allowed characters only, possibly empty. */
const only = (forbidden: string) => new RegExp(`^[^${forbidden}]*$`, 'u');

/** Text of the allowed characters with at least one that is not white space: what is left after trimming is not empty. */
const nonBlank = (forbidden: string) => new RegExp(`^[^${forbidden}]*[^${forbidden}\\s][^${forbidden}]*$`, 'u');

const XML_SAFE = only(XML_FORBIDDEN);
/** One line of text, possibly empty. */
export const SINGLE_LINE = only(XML_FORBIDDEN + LINE_BREAKING);

/** Free text a field requires: XML-safe and not blank. */
export const XML_TEXT = nonBlank(XML_FORBIDDEN);
export const XML_TEXT_MESSAGE =
  'must hold a character other than white space, and none XML cannot carry (a control character other than tab, CR and LF, U+FFFE/U+FFFF, an unpaired surrogate)';

/** One line of text a field requires: single-line as above and not blank. */
export const SINGLE_LINE_TEXT = nonBlank(XML_FORBIDDEN + LINE_BREAKING);

export function isXmlSafe(text: string): boolean {
  return XML_SAFE.test(text);
}

export const XML_UNSAFE_MESSAGE =
  'contains a character XML cannot carry (a control character, U+FFFE/U+FFFF or an unpaired surrogate)';

export function isSingleLineText(text: string): boolean {
  return SINGLE_LINE.test(text);
}

export const NOT_SINGLE_LINE_MESSAGE =
  'must be one line: no control character but tab, no line separator, nothing XML cannot carry (U+FFFE/U+FFFF, an unpaired surrogate)';

/** Length as JSON Schema's `maxLength` counts it: in characters (code points), not UTF-16 units. */
export const characterCount = (text: string): number => [...text].length;

/**
 * Stored text made safe to print on a terminal: line feed becomes `\n`, other
 * control characters (C0, DEL, C1), the line and paragraph separators and
 * the bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069)
 * and the bidi marks (U+200E, U+200F, U+061C) become `\uXXXX`, so a value can neither start a row of its own, move the
 * cursor, nor reorder what is printed around it. Backslashes are left as
 * they are: escaping twice changes nothing, and JSON text (whose escapes
 * these are) passes through unharmed.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this pattern is for
const TERMINAL_UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

export function escapeForTerminal(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (char) =>
    char === '\n' ? '\\n' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A document number as the stem of a file name any mail client or file system takes. */
export const fileStemOf = (number: string): string =>
  number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'document';
