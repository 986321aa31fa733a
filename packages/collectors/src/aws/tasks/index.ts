import type { AwsTask } from '../context.js';
import { cloudtrailTask } from './cloudtrail.js';
import { dynamodbTask } from './dynamodb.js';
import { ebsTask } from './ebs.js';
import { ec2ComputeTask } from './ec2-compute.js';
import { ec2NetworkTask } from './ec2-network.js';
import { elbv2Task } from './elbv2.js';
import { guarddutyTask } from './guardduty.js';
import { iamTask } from './iam.js';
import { kmsTask } from './kms.js';
import { lambdaTask } from './lambda.js';
import { organizationsTask } from './organizations.js';
import { rdsTask } from './rds.js';
import { s3Task } from './s3.js';
import { secretsTask } from './secrets.js';

/** Every AWS task, in the order a region runs them (coverage lists them in this order). */
export const AWS_TASKS: readonly AwsTask[] = [
  iamTask,
  s3Task,
  organizationsTask,
  ec2NetworkTask,
  ec2ComputeTask,
  ebsTask,
  elbv2Task,
  rdsTask,
  lambdaTask,
  dynamodbTask,
  kmsTask,
  secretsTask,
  cloudtrailTask,
  guarddutyTask,
];
