import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes.js';

/**
 * kubectl against one sandbox EKS cluster, as a user reaches it: a kubeconfig printed by
 * `instantstart kubeconfig <eks cluster>` (the product's CLI; its exec plugin signs with the sandbox's
 * credentials, which `useSandbox` put in this process's environment).
 */
export type Kubectl = (args: string[], input?: string) => string;

export function kubectlFor(dir: string, eksCluster: string): Kubectl {
  const kubeconfig = join(dir, `kubeconfig-${eksCluster}`);
  writeFileSync(
    kubeconfig,
    execFileSync(process.execPath, ['bin/instantstart.mjs', 'kubeconfig', eksCluster], {
      cwd: ROOT,
      env: process.env,
      encoding: 'utf8',
    }),
  );
  return (args, input) =>
    execFileSync('kubectl', ['--kubeconfig', kubeconfig, ...args], {
      cwd: ROOT,
      env: process.env,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      ...(input !== undefined ? { input } : {}),
    });
}
