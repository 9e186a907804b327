import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SandboxChildMessage, SandboxChildOptions } from './sandbox-child.js';

/** The embedded sandbox cloud, running in a child process of the server (bin/sandbox-child.ts). */
export interface SandboxProcess {
  url: string;
  /** Sandbox seconds per real second, as the sandbox reports it. */
  speed: number;
  pid: number;
  /** Asks the sandbox to save its state and exit; kills it if it has not within `graceMs`. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

const CHILD_ENTRY = fileURLToPath(new URL('./sandbox-child.js', import.meta.url));

/**
 * Forks the sandbox process and resolves once it listens (on `port`, or on a free port when that one is
 * taken). Its stdout and stderr are the server's: the sandbox's few lines (errors, a taken port) reach the
 * same terminal. `onUnexpectedExit` is called when it exits before `stop()` — a crash, or a kill.
 */
export function startSandboxProcess(
  options: SandboxChildOptions & { onUnexpectedExit(how: string, pid: number): void },
): Promise<SandboxProcess> {
  const { onUnexpectedExit, ...childOptions } = options;
  const child = fork(CHILD_ENTRY, [JSON.stringify(childOptions)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `was killed (${signal})` : `exited with status ${code}`)),
  );
  let stopping = false;
  let ready = false;
  return new Promise((resolve, reject) => {
    const failed = (message: string) => {
      if (ready) return;
      stopping = true;
      child.kill('SIGKILL');
      reject(new Error(`The sandbox cloud did not start: ${message}`));
    };
    child.on('error', (err) => failed(err.message));
    void exited.then((how) => failed(`its process ${how} before it listened`));
    child.on('message', (message: SandboxChildMessage) => {
      if (message.type === 'failed') return failed(message.message);
      if (message.type !== 'listening' || ready) return;
      ready = true;
      void exited.then((how) => {
        if (!stopping) onUnexpectedExit(how, message.pid);
      });
      resolve({
        url: message.url,
        speed: message.speed,
        pid: message.pid,
        async stop(graceMs = 10_000) {
          stopping = true;
          if (child.exitCode !== null || child.signalCode !== null) return;
          if (child.connected) child.send({ type: 'stop' });
          else child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}
