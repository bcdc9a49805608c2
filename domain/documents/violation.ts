/** One problem of a document: its JSON path, the EN 16931 / Peppol rule it breaks where one applies, and what to do. */
export interface Violation {
  path: string;
  rule: string | null;
  message: string;
}
