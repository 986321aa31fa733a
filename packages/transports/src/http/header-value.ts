/** One header as a single string: Node gives repeated headers as an array, joined here with `, `. */
import type { IncomingHttpHeaders } from 'node:http';

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
