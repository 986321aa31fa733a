import type { AuthClient, GoogleAuth } from 'google-auth-library';

/** A Google API error as the governor classifies it: `code`, the HTTP `statusCode`, the response headers (Retry-After). */
export class GoogleApiError extends Error {
  override readonly name = 'GoogleApiError';
  constructor(
    message: string,
    readonly code: string,
    readonly statusCode: number,
    readonly response: { status: number; headers: Headers },
  ) {
    super(message);
  }
}

export interface JsonRequest {
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  /** A JSON body (POST). */
  body?: unknown;
}

/**
 * One request to a Google JSON API (the ones no official client on Node 20 offers in a usable
 * form: Cloud Storage, IAM service accounts), signed by the collector's google-auth-library
 * client, or unsigned for an emulator (`auth` null). A failure becomes a GoogleApiError carrying
 * Google's error envelope (`error.status`, else its first `reason`), so the governor classifies it
 * as it does the gax clients' errors.
 */
export async function googleJson<T>(
  base: string,
  auth: AuthClient | GoogleAuth | null,
  request: JsonRequest,
  signal: AbortSignal,
): Promise<T> {
  const url = new URL(`${base.replace(/\/+$/, '')}${request.path}`);
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
  const headers = new Headers({ accept: 'application/json' });
  if (request.body !== undefined) headers.set('content-type', 'application/json');
  if (auth) for (const [key, value] of await auth.getRequestHeaders(url.href)) headers.set(key, value);
  const response = await fetch(url, {
    method: request.method ?? 'GET',
    headers,
    signal,
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.ok) return (body ?? {}) as T;
  const error = (body as { error?: { status?: string; message?: string; errors?: { reason?: string }[] } })
    ?.error;
  const code = error?.status ?? error?.errors?.[0]?.reason ?? `HTTP${response.status}`;
  throw new GoogleApiError(error?.message ?? response.statusText, code, response.status, {
    status: response.status,
    headers: response.headers,
  });
}

/** The root of a stand-in API from the clients' settings, or null for Google's own endpoint. */
export function standInBase(settings: {
  apiEndpoint?: string;
  port?: number;
  protocol?: 'http' | 'https';
}): string | null {
  return settings.apiEndpoint
    ? `${settings.protocol ?? 'https'}://${settings.apiEndpoint}${settings.port ? `:${settings.port}` : ''}`
    : null;
}
