/**
 * A handshake-era session's continuable state (see shared-session-store.ts): read from a local
 * view, laid onto a view, and the difference one request made, which is what gets written back.
 */
import type { Session } from '../protocol/session.js';
import type { SharedSessionChange, SharedSessionState } from './shared-session-store.js';

export function captureState(session: Session, binding: string, principalId: string): SharedSessionState {
  return {
    binding,
    principalId,
    ...(session.initResponded && session.protocolVersion !== undefined
      ? { protocolVersion: session.protocolVersion }
      : {}),
    initialized: session.initialized,
    ...(session.clientInfo === undefined ? {} : { clientInfo: session.clientInfo }),
    ...(session.clientCapabilities === undefined ? {} : { clientCapabilities: session.clientCapabilities }),
    logLevel: session.logLevel,
    subscriptions: session.subscriptions.entries(),
  };
}

/** Make a view what the store holds. A session without a version has not been initialized yet. */
export function restoreState(session: Session, state: SharedSessionState): void {
  if (state.protocolVersion !== undefined) {
    session.era = 'legacy';
    session.protocolVersion = state.protocolVersion;
    session.initResponded = true;
  }
  session.initialized = state.initialized;
  if (state.clientInfo !== undefined) session.clientInfo = state.clientInfo;
  if (state.clientCapabilities !== undefined) session.clientCapabilities = state.clientCapabilities;
  session.logLevel = state.logLevel;
  session.subscriptions.replace(state.subscriptions);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What changed from `before` to `after`; undefined when nothing did (most requests). */
export function stateChange(
  before: SharedSessionState,
  after: SharedSessionState,
): SharedSessionChange | undefined {
  const change: SharedSessionChange = {};
  if (after.protocolVersion !== undefined && after.protocolVersion !== before.protocolVersion)
    change.protocolVersion = after.protocolVersion;
  if (after.initialized !== before.initialized) change.initialized = after.initialized;
  if (after.clientInfo !== undefined && !same(after.clientInfo, before.clientInfo))
    change.clientInfo = after.clientInfo;
  if (after.clientCapabilities !== undefined && !same(after.clientCapabilities, before.clientCapabilities))
    change.clientCapabilities = after.clientCapabilities;
  if (after.logLevel !== before.logLevel) change.logLevel = after.logLevel;
  const subscribed: Record<string, string> = {};
  for (const [real, uri] of Object.entries(after.subscriptions))
    if (before.subscriptions[real] !== uri) subscribed[real] = uri;
  const unsubscribed = Object.keys(before.subscriptions).filter((real) => !(real in after.subscriptions));
  if (Object.keys(subscribed).length > 0) change.subscribed = subscribed;
  if (unsubscribed.length > 0) change.unsubscribed = unsubscribed;
  return Object.keys(change).length > 0 ? change : undefined;
}
