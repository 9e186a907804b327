import { defineCapability } from '../capability.js';
import { registerModelDownloadRoutes } from './routes.js';
import { ModelDownloadsService } from './service.js';
import { registerDownloadModelTool } from './tools/download-model.js';
import { registerListModelDownloadsTool } from './tools/list-model-downloads.js';
import { modelDownloadWorkflow } from './workflows/model-download.js';

/** Hugging Face Hub models downloaded into a cluster's S3 storage by a Job running `hf download`. */
export const modelDownloads = defineCapability<ModelDownloadsService>({
  name: 'model-downloads',
  workflows: (deps) => [modelDownloadWorkflow(deps)],
  service: (deps) => new ModelDownloadsService(deps),
  routes: registerModelDownloadRoutes,
  tools: [registerDownloadModelTool, registerListModelDownloadsTool],
});
