// @cloudg/collectors/azure: the Azure collector on the ARM management SDKs and @azure/identity.
// Importing this entry point loads the Azure clients; nothing else in the package does.

export type { AzureClientSettings } from './clients.js';
export { AzureCollector, type AzureCollectorOptions } from './collector.js';
export type { AzureTask, AzureTaskContext, AzureTaskOutput, RoleGrant } from './context.js';
export { AZURE_TASKS } from './tasks/index.js';
