import { z } from 'zod';

/** Output schema of `sparql_query`: the documented keys; rows are string-or-null maps. */
export const sparqlQueryOutput = z.object({
  dataset: z.string(),
  query_type: z.enum(['SelectQuery', 'AskQuery', 'ConstructQuery', 'DescribeQuery']),
  answer: z.boolean().optional(),
  rows: z.array(z.record(z.string(), z.string().nullable())),
  returned: z.number().int(),
  truncated: z.boolean(),
  variable_kinds: z.record(z.string(), z.enum(['uri', 'literal', 'term'])).optional(),
  hint: z.string().optional(),
});
