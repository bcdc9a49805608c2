import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodObject } from 'zod';

/**
 * A tool's `inputSchema`: the API's own zod schema of the request as JSON
 * Schema, the way a client writes it (defaults optional, decimals as numbers
 * or strings). The API documents some fields through zod-to-openapi's
 * `.openapi()` (id patterns, the Peppol id's form, list limits), which plain
 * zod does not read, so those descriptions, examples and patterns are added
 * here. A schema with an `id` (DocumentRequest) would come out as a root
 * `$ref`; MCP needs an object at the root, so it is inlined.
 */
export function toolInputSchema(schema: ZodObject): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      const documented = zodSchema instanceof z.ZodType ? getOpenApiMetadata(zodSchema) : undefined;
      if (!documented) return;
      const { description, pattern, example } = documented as {
        description?: unknown;
        pattern?: unknown;
        example?: unknown;
      };
      if (typeof description === 'string' && !jsonSchema.description) jsonSchema.description = description;
      if (typeof pattern === 'string' && !jsonSchema.pattern) jsonSchema.pattern = pattern;
      if (example !== undefined && !jsonSchema.examples) jsonSchema.examples = [example];
    },
  });
  const rootName = typeof json.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  if (!rootName) return json as Tool['inputSchema'];
  const { $ref: _root, $defs: { [rootName]: root, ...otherDefs } = {}, ...rest } = json;
  return {
    ...rest,
    ...(root as object),
    ...(Object.keys(otherDefs).length > 0 && { $defs: otherDefs }),
  } as Tool['inputSchema'];
}
