import type { components, operations } from './schema';

/**
 * Names for parts of the generated schema, so helpers are typed from it
 * and never by a hand-written copy of the API's types.
 */

type Operation = keyof operations;

/** A named schema of the description, e.g. `Schema<'Document'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The JSON body an operation takes. */
export type JsonBody<O extends Operation> = operations[O] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The query parameters an operation takes. */
export type Query<O extends Operation> = operations[O]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;

/** A list's query without its `cursor`: the iterators page by themselves. */
export type ListQuery<O extends Operation> = Omit<Query<O>, 'cursor'>;
