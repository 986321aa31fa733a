/**
 * 2026-07-28 listen filters under a pseudonymising policy. The SDK's listen router matches a
 * `resources/updated` event against the URIs a `subscriptions/listen` request named, as strings,
 * and the layer's change events carry real URIs; a client that names the pseudonymised URI it was
 * shown would never be told. The native server restores the filter's URIs to real ones
 * (`Layer.realResourceUri`) and notifies under the URI the client sent; this does the same in
 * front of the SDK: the listen request reaches the SDK with real URIs, and what the SDK sends back
 * on that subscription (the acknowledgement, each update) is put back to the client's URIs, so the
 * client never sees a real identifier it was not shown. Over HTTP `createSdkHttpHandler` does it
 * per request; over a stream `restoringListenFilters` wraps the transport `serveStdio` is given.
 */
import type { Layer, Principal } from '@cloudg/core';
import type { Transport } from '@modelcontextprotocol/server';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

interface Message {
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
}

type UriMap = Map<string, string>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a listen request's filter becomes: the request to hand the SDK and the real-to-sent map. */
export async function restoreListenFilter(
  layer: Layer<unknown>,
  message: Message,
  principal: Principal,
): Promise<{ message: Message; sentAs: UriMap } | undefined> {
  if (message.method !== 'subscriptions/listen' || !isObject(message.params)) return undefined;
  const filter = message.params.notifications;
  if (!isObject(filter) || !Array.isArray(filter.resourceSubscriptions)) return undefined;
  const sentAs: UriMap = new Map();
  const real: unknown[] = [];
  for (const uri of filter.resourceSubscriptions) {
    if (typeof uri !== 'string') {
      real.push(uri);
      continue;
    }
    const restored = await layer.realResourceUri(uri, principal);
    sentAs.set(restored, uri);
    real.push(restored);
  }
  if ([...sentAs].every(([restored, sent]) => restored === sent)) return undefined;
  const notifications = { ...filter, resourceSubscriptions: real };
  return { message: { ...message, params: { ...message.params, notifications } }, sentAs };
}

/** A message the SDK sends on a listen subscription, with the client's URIs put back. */
export function toClientUris(message: Message, sentAs: UriMap): Message {
  if (!isObject(message.params)) return message;
  if (message.method === 'notifications/resources/updated' && typeof message.params.uri === 'string') {
    const sent = sentAs.get(message.params.uri);
    return sent === undefined ? message : { ...message, params: { ...message.params, uri: sent } };
  }
  if (message.method === 'notifications/subscriptions/acknowledged') {
    const filter = message.params.notifications;
    if (isObject(filter) && Array.isArray(filter.resourceSubscriptions)) {
      const resourceSubscriptions = filter.resourceSubscriptions.map((uri) =>
        typeof uri === 'string' ? (sentAs.get(uri) ?? uri) : uri,
      );
      return {
        ...message,
        params: { ...message.params, notifications: { ...filter, resourceSubscriptions } },
      };
    }
  }
  return message;
}

/** The subscription a notification belongs to (the listen request's id), if any. */
export function subscriptionOf(message: Message): string | number | undefined {
  const meta = isObject(message.params) ? message.params._meta : undefined;
  const id = isObject(meta) ? meta[SUBSCRIPTION_ID] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * An SSE body whose `data:` frames are rewritten by `rewrite` (the SDK writes one JSON-RPC message
 * per `event: message` frame, frames separated by a blank line).
 */
export function rewriteSseBody(
  body: ReadableStream<Uint8Array>,
  rewrite: (message: Message) => Message,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const frame = (text: string) =>
    text
      .split('\n')
      .map((line) => {
        if (!line.startsWith('data: ')) return line;
        try {
          return `data: ${JSON.stringify(rewrite(JSON.parse(line.slice(6)) as Message))}`;
        } catch {
          return line;
        }
      })
      .join('\n');
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        let end = pending.indexOf('\n\n');
        while (end !== -1) {
          controller.enqueue(encoder.encode(`${frame(pending.slice(0, end))}\n\n`));
          pending = pending.slice(end + 2);
          end = pending.indexOf('\n\n');
        }
      },
      flush(controller) {
        if (pending) controller.enqueue(encoder.encode(frame(pending)));
      },
    }),
  );
}

/**
 * The same for a stream transport the SDK's `serveStdio` serves (stdio, in memory): listen
 * requests are restored before the SDK reads them (messages stay in order), and what is sent on
 * such a subscription gets the client's URIs back. `principal` is whoever the stream serves.
 */
export function restoringListenFilters<TApp>(
  appLayer: Layer<TApp>,
  inner: Transport,
  principal: () => Principal | Promise<Principal>,
): Transport {
  const layer = appLayer as Layer<unknown>;
  const bySubscription = new Map<string | number, UriMap>();
  let queue: Promise<void> = Promise.resolve();
  const wrapper: Transport = {
    start: async () => {
      inner.onclose = () => wrapper.onclose?.();
      inner.onerror = (error) => wrapper.onerror?.(error);
      inner.onmessage = (message, extra) => {
        // In order: a listen request waits for its URIs to be restored, and so does what follows.
        queue = queue.then(async () => {
          let delivered = message;
          const candidate = message as Message;
          if (
            candidate.method === 'subscriptions/listen' &&
            candidate.id !== undefined &&
            candidate.id !== null
          ) {
            try {
              const restored = await restoreListenFilter(layer, candidate, await principal());
              if (restored) {
                bySubscription.set(candidate.id, restored.sentAs);
                delivered = restored.message as typeof message;
              }
            } catch (error) {
              layer.logger.warn({ err: error }, 'could not restore a listen filter; passed on as sent');
            }
          }
          wrapper.onmessage?.(delivered, extra);
        });
      };
      await inner.start();
    },
    send: (message, options) => {
      const sub = subscriptionOf(message as Message);
      const sentAs = sub === undefined ? undefined : bySubscription.get(sub);
      if (!sentAs) return inner.send(message, options);
      return inner.send(toClientUris(message as Message, sentAs) as typeof message, options);
    },
    close: () => inner.close(),
  };
  Object.defineProperty(wrapper, 'sessionId', { get: () => inner.sessionId });
  return wrapper;
}
