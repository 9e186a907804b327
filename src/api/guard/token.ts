import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time equality of a presented token and the server's: compared as SHA-256 digests, so
 * neither their content nor their length leaks through timing.
 */
export function sameToken(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
