import { awsQueryErrors } from '../core/error-styles.js';
import type { ServiceModule } from '../core/service.js';

/**
 * STS: who the caller is. GetCallerIdentity also answers presigned GET URLs — the form an EKS
 * bearer token (`k8s-aws-v1.…`) carries — because SigV4 verification is shared by every request.
 */
export const sts: ServiceModule = {
  signingName: 'sts',
  protocol: 'awsQuery',
  xmlNamespace: 'https://sts.amazonaws.com/doc/2011-06-15/',
  errors: awsQueryErrors(),
  operations: {
    GetCallerIdentity: (_input, ctx) => ({
      UserId: ctx.principal.userId,
      Account: ctx.principal.accountId,
      Arn: ctx.principal.arn,
    }),
  },
};
