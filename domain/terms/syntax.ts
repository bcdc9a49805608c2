import type { TermDocument } from './document';
import type { Term, TermGroup } from './table';

/**
 * What the term table's writer and reader need to know of one XML syntax:
 * its namespaces and root, which of a row's paths is its own, how it writes
 * a date, and the order its schema puts children in (the XSD sequences, for
 * the elements the table uses).
 */
export interface XmlSyntax {
  name: 'ubl' | 'cii';
  /** Prefix → namespace URI; every prefix a path uses. */
  namespaces: Record<string, string>;
  /** The root element (its name as the sequences know it, and its namespace) of a document of this type. */
  root(type: TermDocument['type']): { name: string; namespace: string };
  /** The holder's path in this syntax, for a document of this type. */
  path(holder: Term | TermGroup, type: TermDocument['type']): string;
  fixed(group: TermGroup): Record<string, string>;
  /** Children every element of a kind has: path → text (`$taxScheme`: the document's tax scheme). */
  companions: Record<string, Record<string, string>>;
  /** What a document may state besides, which says only what the view implies: read as understood when it says this (path, or path/@attribute → value). */
  implied: Record<string, Record<string, string>>;
  /** Elements the schema requires even when they hold nothing. */
  always: readonly string[];
  /** YYYY-MM-DD → the syntax's text, and back (undefined when the text is not a date of the syntax). */
  date(value: string): string;
  readDate(text: string): string | undefined;
  /** Parent (qualified) → its children in schema order. */
  sequences: Record<string, readonly string[]>;
}
