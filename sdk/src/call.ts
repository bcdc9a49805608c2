import { ApiError } from './errors';

/** What every openapi-fetch call resolves to. */
interface Outcome<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The answer's data, or an ApiError for any non-2xx answer. */
export async function unwrap<Data>(call: Promise<Outcome<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as Data;
}
