/** A problem starting the embedded stack that a person can act on; printed without a stack trace. */
export class StackError extends Error {
  override name = 'StackError';
}
