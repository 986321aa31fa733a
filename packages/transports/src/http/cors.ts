/** CORS for configured browser origins only. */
import type { ServerResponse } from 'node:http';

const ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Mcp-Session-Id',
  'MCP-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
].join(', ');

export class Cors {
  private readonly origins: Set<string>;

  constructor(origins: Iterable<string>) {
    this.origins = new Set([...origins].map((o) => o.toLowerCase()));
  }

  get enabled(): boolean {
    return this.origins.size > 0;
  }

  /** Add the response headers for an origin that has CORS. */
  apply(res: ServerResponse, origin: string | undefined): void {
    if (!origin || !this.origins.has(origin.toLowerCase())) return;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate');
  }

  /** Headers of a preflight answer. */
  preflight(res: ServerResponse, origin: string | undefined): void {
    this.apply(res, origin);
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
  }
}
