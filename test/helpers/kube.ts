import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import type { TestSandbox } from './sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';

const execFileAsync = promisify(execFile);

export interface TestKubeCluster {
  name: string;
  arn: string;
  endpoint: string;
  /** Written by the real `instantstart kubeconfig` command. */
  kubeconfigPath: string;
  /** client-node configured from that kubeconfig (its exec plugin runs `instantstart token`). */
  kubeConfig(): KubeConfig;
  /** Runs the real kubectl with the kubeconfig; `allowFailure` returns the failure instead of throwing. */
  kubectl(
    args: string[],
    options?: { allowFailure?: boolean; env?: Record<string, string>; input?: string },
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Starts a long-running kubectl (`-w`, `logs -f`); `waitFor` polls its output, moving sandbox time between polls. */
  kubectlStream(args: string[]): KubectlStream;
}

export interface KubectlStream {
  output(): string;
  waitFor(pattern: RegExp, options?: { advanceSeconds?: number; tries?: number }): Promise<string>;
  stop(): void;
}

/** Runs the built `instantstart` CLI with the sandbox's AWS settings. */
export async function instantstart(sb: TestSandbox, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, ['bin/instantstart.mjs', ...args], {
    env: { ...process.env, ...sb.env, ...env },
  });
  return stdout;
}

/** An ACTIVE sandbox EKS cluster (API_AND_CONFIG_MAP, creator is admin) with a kubeconfig from the real CLI. */
export async function startKubeCluster(sb: TestSandbox, name: string): Promise<TestKubeCluster> {
  const world = await buildEksWorld(name);
  await activeCluster(sb, world, name);
  return kubeAccess(sb, name);
}

/** Kubernetes access to an ACTIVE sandbox EKS cluster, through `instantstart kubeconfig`. */
export async function kubeAccess(sb: TestSandbox, name: string): Promise<TestKubeCluster> {
  // A tick after ACTIVE bootstraps the cluster's namespaces and system objects.
  await sb.advance(1);
  const { cluster } = await new EKSClient({}).send(new DescribeClusterCommand({ name }));
  const kubeconfigPath = join(sb.stateDir, `${name}.kubeconfig`);
  writeFileSync(kubeconfigPath, await instantstart(sb, ['kubeconfig', name]));
  return {
    name,
    arn: cluster!.arn!,
    endpoint: cluster!.endpoint!,
    kubeconfigPath,
    kubeConfig() {
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfigPath);
      return kc;
    },
    async kubectl(args, options = {}) {
      const env = { ...process.env, ...sb.env, KUBECONFIG: kubeconfigPath, HOME: sb.stateDir, ...(options.env ?? {}) };
      return new Promise((resolve, reject) => {
        const child = execFile('kubectl', args, { env, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
          const code = err
            ? typeof (err as { code?: unknown }).code === 'number'
              ? (err as { code: number }).code
              : 1
            : 0;
          if (err && !options.allowFailure) reject(new Error(`kubectl ${args.join(' ')} failed (${code}): ${stderr}`));
          else resolve({ code, stdout, stderr });
        });
        if (options.input !== undefined) child.stdin!.end(options.input);
      });
    },
    kubectlStream(args) {
      const child = spawn('kubectl', args, {
        env: { ...process.env, ...sb.env, KUBECONFIG: kubeconfigPath, HOME: sb.stateDir },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      return {
        output: () => out,
        async waitFor(pattern, opts = {}) {
          for (let i = 0; i < (opts.tries ?? 100); i++) {
            if (pattern.test(out)) return out;
            if (opts.advanceSeconds) await sb.advance(opts.advanceSeconds);
            await new Promise((r) => setTimeout(r, 100));
          }
          throw new Error(`kubectl ${args.join(' ')}: no ${pattern} in output:\n${out}\nstderr:\n${err}`);
        },
        stop: () => void child.kill(),
      };
    },
  };
}
