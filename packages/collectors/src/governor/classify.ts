/** How the governor treats a failed call (RESILIENCE.md "classify"). */
export type ErrorClass = 'throttled' | 'transient' | 'denied' | 'fatal';

const THROTTLE_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'SlowDown',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'EC2ThrottledException',
  'PriorRequestNotComplete',
]);
const DENIED_CODES = new Set([
  'AccessDenied',
  'AccessDeniedException',
  'UnauthorizedOperation',
  'UnauthorizedAccess',
  'AuthorizationError',
  'AuthorizationFailed',
  'Forbidden',
  'AWSOrganizationsNotInUseException',
  'OptInRequired',
  'SubscriptionRequiredException',
]);
const TRANSIENT_CODES = new Set([
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalError',
  'InternalFailure',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'ECONNRESET',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'EPIPE',
  'TimeoutError',
]);

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  Code?: unknown;
  statusCode?: unknown;
  status?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  $response?: { headers?: Record<string, unknown> };
  response?: { status?: unknown; headers?: unknown };
  retryAfterSeconds?: unknown;
}

function shape(error: unknown): ErrorShape {
  return typeof error === 'object' && error !== null ? (error as ErrorShape) : {};
}

/** The provider's error code (AWS `name`, Azure `code`, a Node system error's `code`). */
export function errorCode(error: unknown): string {
  const e = shape(error);
  for (const candidate of [e.Code, e.code, e.name])
    if (typeof candidate === 'string' && candidate) return candidate;
  return 'Error';
}

export function httpStatus(error: unknown): number | null {
  const e = shape(error);
  for (const candidate of [e.$metadata?.httpStatusCode, e.statusCode, e.status, e.response?.status])
    if (typeof candidate === 'number') return candidate;
  return null;
}

/**
 * Decide what a failure means by duck typing, without importing any SDK: AWS v3 errors carry
 * `name` and `$metadata.httpStatusCode`, Azure's RestError `code` and `statusCode`, Google's
 * clients `code` and `status`. Access denied is its own class: the service answered, so it
 * neither retries nor counts against a breaker, and coverage reports the service as denied.
 */
/** gRPC status codes Google clients put in a numeric `code`: RESOURCE_EXHAUSTED, PERMISSION_DENIED and UNAUTHENTICATED, the transient ones. */
const GRPC_CLASS: Record<number, ErrorClass> = {
  8: 'throttled',
  7: 'denied',
  16: 'denied',
  4: 'transient',
  13: 'transient',
  14: 'transient',
};

export function classify(error: unknown): ErrorClass {
  const grpc = shape(error).code;
  if (typeof grpc === 'number' && grpc < 100 && GRPC_CLASS[grpc]) return GRPC_CLASS[grpc];
  const code = errorCode(error);
  const status = httpStatus(error);
  if (THROTTLE_CODES.has(code) || status === 429) return 'throttled';
  if (DENIED_CODES.has(code) || status === 401 || status === 403) return 'denied';
  if (TRANSIENT_CODES.has(code) || (status !== null && status >= 500)) return 'transient';
  const message = String(shape(error).message ?? '').toLowerCase();
  if (message.includes('rate exceeded') || message.includes('throttl')) return 'throttled';
  return 'fatal';
}

/** Seconds the server asked us to wait (`Retry-After`, in seconds or as an HTTP date), or null. */
export function retryAfterSeconds(error: unknown, now: number = Date.now()): number | null {
  const e = shape(error);
  if (typeof e.retryAfterSeconds === 'number') return e.retryAfterSeconds;
  const headers = (e.$response?.headers ?? (e.response?.headers as Record<string, unknown> | undefined)) as
    | Record<string, unknown>
    | { get?: (name: string) => unknown }
    | undefined;
  let raw: unknown;
  if (headers && typeof (headers as { get?: unknown }).get === 'function')
    raw = (headers as { get: (name: string) => unknown }).get('retry-after');
  else if (headers)
    raw =
      (headers as Record<string, unknown>)['retry-after'] ??
      (headers as Record<string, unknown>)['Retry-After'];
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(String(raw));
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}
