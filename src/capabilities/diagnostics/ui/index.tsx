import type { CapabilityUi } from '@kit/capability.js';

/** Diagnostics add no page of their own: their buttons sit where the problem is (a failed create, a node, a training job). */
export const ui: CapabilityUi = {};

export { DiagnoseCreationButton, DiagnoseNcclButton, DiagnoseNodeButton } from './DiagnoseButtons.js';
export { DiagnosisView } from './DiagnosisView.js';
