import type { ServiceModule } from '../core/service.js';
import { sts } from './sts.js';

/** Every service the sandbox serves, keyed by its SigV4 signing name. */
export const SERVICES: ServiceModule[] = [sts];
