// The one list of capabilities: adding a capability is adding its folder and one line here.
export { system } from './system/index.js';
export { catalog } from './catalog/index.js';
export { operations } from './operations/index.js';
export { clusters } from './clusters/index.js';
export { instanceGroups } from './instance-groups/index.js';
export { nodes } from './nodes/index.js';
export { autoscaling } from './autoscaling/index.js';
export { features } from './features/index.js';
export { storage } from './storage/index.js';
export { modelDownloads } from './model-downloads/index.js';
export { training } from './training/index.js';
export { inference } from './inference/index.js';
export { diagnostics } from './diagnostics/index.js';
export { audit } from './audit/index.js';
export { doctor } from './doctor/index.js';
