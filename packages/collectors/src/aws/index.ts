// @cloudg/collectors/aws: the AWS collector on the AWS SDK for JavaScript v3. Importing this entry
// point loads the AWS clients; nothing else in the package does.

export type { AwsClientSettings, AwsCredentials } from './clients.js';
export { AwsCollector, type AwsCollectorOptions } from './collector.js';
export type { AwsTask, AwsTaskContext, TaskOutput } from './context.js';
export { AWS_TASKS } from './tasks/index.js';
