import { jsonRpcErrors } from '../../core/error-styles.js';
import type { ServiceModule } from '../../core/service.js';
import { pricingOperations } from './ops.js';

/**
 * AWS Price List Service (signing name `pricing`, awsJson1_1, target prefix `AWSPriceListService`, as in
 * @aws-sdk/client-pricing), answering with the sandbox catalogue's prices (sandbox/catalog/prices.ts).
 * `global`: its endpoints are in Regions the sandbox does not otherwise play (eu-central-1, ap-south-1); the
 * handlers refuse the Regions without an endpoint themselves.
 */
export const pricing: ServiceModule = {
  signingName: 'pricing',
  protocol: 'awsJson1_1',
  targetPrefix: 'AWSPriceListService',
  global: true,
  errors: jsonRpcErrors('InvalidParameterException'),
  operations: pricingOperations,
};
