import { getContinuationToken } from '@azure/arm-authorization';
import { type AzureTask, listAll, type RoleGrant } from '../context.js';

/**
 * Role assignments of the subscription (every scope inside it). They become `GRANTS_ACCESS`
 * edges principal -> scope once all tasks have run, so a VM's managed identity links from the VM.
 */
export const azureAuthorizationTask: AzureTask = {
  name: 'azure_authorization',
  async run(ctx) {
    const auth = ctx.client('authorization');
    const grants: RoleGrant[] = [];
    for (const a of await listAll(
      ctx,
      'authorization',
      () => auth.roleAssignments.listForSubscription({ abortSignal: ctx.signal }),
      getContinuationToken,
    )) {
      if (!a.principalId || !a.scope) continue;
      grants.push({
        principalId: a.principalId,
        principalType: a.principalType,
        scope: a.scope,
        roleDefinitionId: a.roleDefinitionId,
        assignmentId: a.id,
      });
    }
    return { assets: [], grants };
  },
};
