/**
 * A handshake-era question with no way to the client. The 2025-11-25 HTTP transport carries a
 * server-to-client request on the SSE stream of the request it belongs to, or on the session's
 * GET stream. A server that answers POSTs as plain JSON (`jsonResponse`) has only the GET stream,
 * so a question asked while that stream is closed would wait in the outbox for a stream that may
 * never open: the call is refused at once instead, and says why.
 */
import { McpLayerError } from '@cloudg/core';

export class ClientUnreachableError extends McpLayerError {
  override readonly code: string = 'client_unreachable';

  constructor() {
    super(
      'The server cannot ask the client now: it answers requests as plain JSON (no stream per request) and the session has no open GET stream. Open the GET stream of the session, or use a server that streams its answers.',
      { data: { needs: 'GET stream' } },
    );
  }
}
