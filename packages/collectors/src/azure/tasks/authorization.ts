import { getContinuationToken } from '@azure/arm-authorization';
import { errorCode } from '../../governor/classify.js';
import { type AzureTask, listAll, type RoleGrant } from '../context.js';

/**
 * Built-in roles that hand out control of what they cover (INVENTORY_INTERNALS.md 8: Owner,
 * Contributor, User Access Administrator, any `*Administrator` and `*Data Owner` role).
 */
export function privilegedRole(name: string | undefined): boolean {
  if (!name) return false;
  return (
    name === 'Owner' ||
    name === 'Contributor' ||
    name === 'User Access Administrator' ||
    name.endsWith('Administrator') ||
    name.endsWith('Data Owner')
  );
}

/** The GUID at the end of a role definition id, lower-cased: assignments and definitions name it alike. */
const definitionKey = (id: string | undefined) => id?.split('/').pop()?.toLowerCase();

/**
 * Role assignments of the subscription (every scope inside it), with their roles' names from the
 * role definitions visible there. They become `GRANTS_ACCESS` / `POLICY_ALLOWS_ACTION` edges
 * principal -> scope once all tasks have run (so a VM's managed identity links from the VM), with
 * `role`, `role_definition_id`, `privileged`, `principal_type`, `assignment_id` and `condition`
 * (INVENTORY_INTERNALS.md 8). Definitions the caller may not list leave the roles unnamed, not
 * privileged, and the task PARTIAL.
 */
export const azureAuthorizationTask: AzureTask = {
  name: 'azure_authorization',
  async run(ctx) {
    const auth = ctx.client('authorization');
    const names = new Map<string, string>();
    try {
      for (const d of await listAll(
        ctx,
        'authorization',
        // The scope goes into the path as written (`{scope}/providers/...` after the host's slash),
        // so it takes no leading slash.
        () => auth.roleDefinitions.list(`subscriptions/${ctx.subscription}`, { abortSignal: ctx.signal }),
        getContinuationToken,
      )) {
        const key = definitionKey(d.id ?? d.name);
        if (key && d.roleName) names.set(key, d.roleName);
      }
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      ctx.partial(`roleDefinitions: ${errorCode(error)}`);
    }
    const grants: RoleGrant[] = [];
    for (const a of await listAll(
      ctx,
      'authorization',
      () => auth.roleAssignments.listForSubscription({ abortSignal: ctx.signal }),
      getContinuationToken,
    )) {
      if (!a.principalId || !a.scope) continue;
      const role = names.get(definitionKey(a.roleDefinitionId) ?? '');
      grants.push({
        principalId: a.principalId,
        principalType: a.principalType,
        scope: a.scope,
        roleDefinitionId: a.roleDefinitionId,
        assignmentId: a.id,
        properties: {
          role,
          role_definition_id: a.roleDefinitionId,
          privileged: privilegedRole(role),
          principal_type: a.principalType,
          assignment_id: a.id,
          condition: a.condition,
        },
      });
    }
    return { assets: [], grants };
  },
};
