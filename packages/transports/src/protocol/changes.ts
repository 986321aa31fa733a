/** Layer change events (MCP.md 8.10) as protocol notifications. */
import type { ChangeKind } from '@cloudg/core';

export type ChangeEvent =
  | { kind: 'tools'; method: 'notifications/tools/list_changed' }
  | { kind: 'prompts'; method: 'notifications/prompts/list_changed' }
  | { kind: 'resources'; method: 'notifications/resources/list_changed' }
  | { kind: 'resource'; method: 'notifications/resources/updated'; uri: string };

/** One layer event as notifications: `resources` with a URI is a list change plus an update. */
export function expandChange(kind: ChangeKind, uri: string | undefined): ChangeEvent[] {
  const updated = (u: string): ChangeEvent => ({
    kind: 'resource',
    method: 'notifications/resources/updated',
    uri: u,
  });
  switch (kind) {
    case 'tools':
      return [{ kind: 'tools', method: 'notifications/tools/list_changed' }];
    case 'prompts':
      return [{ kind: 'prompts', method: 'notifications/prompts/list_changed' }];
    case 'resources': {
      const events: ChangeEvent[] = [{ kind: 'resources', method: 'notifications/resources/list_changed' }];
      if (uri) events.push(updated(uri));
      return events;
    }
    case 'resource':
      return uri ? [updated(uri)] : [];
  }
}
