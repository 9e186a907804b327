import { startOnce, type Kind } from './startup.js';

/**
 * One start as a whole command, for timing from outside with any process timer:
 *
 *   /usr/bin/time -v node dist/bench/startup-probe.js ours    # instantstart serve until /healthz answers, then stop
 *   /usr/bin/time -v node dist/bench/startup-probe.js bare    # the same for a bare Fastify
 *
 * Prints the milliseconds from spawn to the first /healthz answer.
 */
const kind = process.argv[2];
if (kind !== 'ours' && kind !== 'bare') {
  process.stderr.write('usage: node dist/bench/startup-probe.js ours|bare\n');
  process.exit(2);
}
const { ms } = await startOnce(kind as Kind);
process.stdout.write(`${Math.round(ms)}\n`);
