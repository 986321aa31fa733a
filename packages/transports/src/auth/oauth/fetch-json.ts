/** Requests to the authorization server: a time limit, and JSON or a clear error. */

export class AuthorizationServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizationServerError';
  }
}

export async function fetchJson(
  url: string,
  init: RequestInit & { timeoutMs: number },
): Promise<Record<string, unknown>> {
  const { timeoutMs, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(url, {
      ...rest,
      redirect: 'error',
      headers: { accept: 'application/json', ...(rest.headers as Record<string, string> | undefined) },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new AuthorizationServerError(`${url}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new AuthorizationServerError(`${url}: HTTP ${response.status}`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AuthorizationServerError(`${url}: the answer is not a JSON object`);
  return body as Record<string, unknown>;
}
