import type { ServiceModule } from '../core/service.js';
import { sts } from './sts.js';
import { ec2 } from './ec2/index.js';
import { s3 } from './s3/index.js';
import { fsx } from './fsx/index.js';
import { sagemaker } from './sagemaker/index.js';
import { iam } from './iam/index.js';
import { servicequotas } from './quotas/index.js';
import { eks } from './eks/index.js';
import { pricing } from './pricing/index.js';

/** Every service the sandbox serves, keyed by its SigV4 signing name. */
export const SERVICES: ServiceModule[] = [sts, ec2, s3, fsx, sagemaker, iam, servicequotas, eks, pricing];
