import type { AzureTask } from '../context.js';
import { azureAuthorizationTask } from './authorization.js';
import { azureComputeTask } from './compute.js';
import { azureCosmosDbTask } from './cosmosdb.js';
import { azureKeyVaultTask } from './keyvault.js';
import { azureNetworkTask } from './network.js';
import { azureSqlTask } from './sql.js';
import { azureStorageTask } from './storage.js';

/** Every Azure task, in coverage order. */
export const AZURE_TASKS: readonly AzureTask[] = [
  azureNetworkTask,
  azureComputeTask,
  azureStorageTask,
  azureSqlTask,
  azureCosmosDbTask,
  azureKeyVaultTask,
  azureAuthorizationTask,
];
