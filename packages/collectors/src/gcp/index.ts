// @cloudg/collectors/gcp: the Google Cloud collector on the official @google-cloud clients over
// their REST transport. Importing this entry point loads those clients; nothing else does.

export type { GcpClientSettings } from './clients.js';
export {
  GcpCollector,
  type GcpCollectorOptions,
  type GcpTaskContext,
  type GcpTaskOutput,
} from './collector.js';
export { GCP_TASKS, type GcpTask } from './tasks.js';
