/**
 * `subscriptions/listen` (2026-07-28): a long-lived request whose stream carries the change
 * notifications the client asked for, each tagged with the listen request's id.
 */
import { invalidParams } from '../jsonrpc/errors.js';
import { isObject, notification, type RequestId } from '../jsonrpc/messages.js';
import { acceptsTask, tasksExtensionRequired } from '../tasks/task-call.js';
import { acceptedTasks, watchTasks } from '../tasks/task-notifications.js';
import { type ChangeEvent, expandChange } from './changes.js';
import { MetaKeys } from './envelope.js';
import type { RequestContext } from './request-context.js';
import type { Session } from './session.js';
import { SubscribedUris } from './subscribed-uris.js';

export interface ListenFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
  /** Tasks whose status changes are sent (`notifications/tasks`, tasks extension). */
  taskIds?: string[];
}

/** The part of the requested filter this server honours (all four kinds, as asked). */
function acceptFilter(requested: unknown): ListenFilter {
  if (requested === undefined || requested === null) return {};
  if (!isObject(requested)) throw invalidParams('notifications must be an object');
  const filter: ListenFilter = {};
  if (requested.toolsListChanged === true) filter.toolsListChanged = true;
  if (requested.promptsListChanged === true) filter.promptsListChanged = true;
  if (requested.resourcesListChanged === true) filter.resourcesListChanged = true;
  const uris = requested.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((u) => typeof u === 'string')) {
      throw invalidParams('resourceSubscriptions must be a list of URIs');
    }
    filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  return filter;
}

function wantsList(filter: ListenFilter, event: ChangeEvent): boolean {
  switch (event.kind) {
    case 'tools':
      return filter.toolsListChanged === true;
    case 'prompts':
      return filter.promptsListChanged === true;
    case 'resources':
      return filter.resourcesListChanged === true;
    case 'resource':
      return false;
  }
}

/** One open listen request. */
export class ListenStream {
  private finish: (() => void) | undefined;
  readonly done: Promise<void>;

  constructor(
    readonly session: Session,
    readonly id: RequestId,
    readonly filter: ListenFilter,
    private readonly rc: RequestContext,
    /** The filter's resource URIs, matched by the real URIs change events carry. */
    private readonly resources: SubscribedUris = new SubscribedUris(),
  ) {
    this.done = new Promise<void>((resolve) => {
      this.finish = resolve;
    });
  }

  /** Forward one change event, when the filter asked for it. */
  deliver(event: ChangeEvent): void {
    if (this.rc.cancellation.aborted) return;
    let params: Record<string, unknown> = {};
    if (event.kind === 'resource') {
      const uri = this.resources.clientUri(event.uri);
      if (uri === undefined) return;
      params = { uri };
    } else if (!wantsList(this.filter, event)) return;
    params._meta = { [MetaKeys.subscriptionId]: this.id };
    this.rc.notify(notification(event.method, params));
  }

  /**
   * Changes were missed and cannot be told one by one: every notification the filter asks for,
   * once, as though everything it follows had changed.
   */
  deliverEverything(): void {
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      for (const event of expandChange(kind, undefined)) this.deliver(event);
    }
    for (const real of Object.keys(this.resources.entries())) {
      for (const event of expandChange('resource', real)) this.deliver(event);
    }
  }

  /** End the stream gracefully: the listen request then gets its final result. */
  end(): void {
    this.finish?.();
  }
}

/** The `subscriptions/listen` method: acknowledge, forward events until the stream ends. */
export async function listen(rc: RequestContext): Promise<Record<string, unknown>> {
  // Task status notifications are not sent (the extension makes them optional: clients poll), so
  // no task id is acknowledged; asking for them without the extension is still refused.
  if (
    isObject(rc.params.notifications) &&
    rc.params.notifications.taskIds !== undefined &&
    !acceptsTask(rc)
  ) {
    throw tasksExtensionRequired(
      'Task status notifications need the tasks extension declared in the request',
    );
  }
  const filter = acceptFilter(rc.params.notifications);
  const tasks = await acceptedTasks(rc);
  if (tasks !== undefined) filter.taskIds = tasks.map((record) => record.taskId);
  const server = rc.session.server;
  const resources = new SubscribedUris();
  for (const uri of filter.resourceSubscriptions ?? []) await resources.add(server.layer, rc.principal, uri);
  const stream = new ListenStream(rc.session, rc.id, filter, rc, resources);
  rc.notify(
    notification('notifications/subscriptions/acknowledged', {
      notifications: filter,
      _meta: { [MetaKeys.subscriptionId]: rc.id },
    }),
  );
  server.listens.add(stream);
  const stopListening = rc.cancellation.onAbort(() => stream.end());
  const stopTasks = tasks === undefined ? undefined : watchTasks(rc, tasks);
  try {
    await stream.done;
  } finally {
    stopTasks?.();
    stopListening();
    server.listens.delete(stream);
  }
  return { _meta: { [MetaKeys.subscriptionId]: rc.id } };
}
