import { keyed } from '../../core/keyed.js';
import type { TickContext } from '../../core/service.js';
import { quotaRegions } from './state.js';

/**
 * Increase requests on the sandbox clock: PENDING until a support case opens (2–5 minutes), then
 * CASE_OPENED until approval (30–90 minutes after the request), when the region's value rises.
 * Every request is approved; the sandbox has no one to say no.
 */
export function quotaTick(ctx: TickContext): boolean {
  const regions = ctx.state.servicequotas === undefined ? undefined : quotaRegions(ctx.state);
  let changed = false;
  for (const region of keyed.values(regions)) {
    for (const req of keyed.values(region.requests)) {
      if (req.status === 'PENDING' && ctx.now >= req.caseOpensAt) {
        req.status = 'CASE_OPENED';
        req.lastUpdated = req.caseOpensAt;
        changed = true;
      }
      if (req.status === 'CASE_OPENED' && ctx.now >= req.approvesAt) {
        req.status = 'APPROVED';
        req.lastUpdated = req.approvesAt;
        keyed.set(
          region.applied,
          req.quotaCode,
          Math.max(keyed.get(region.applied, req.quotaCode) ?? 0, req.desiredValue),
        );
        changed = true;
      }
    }
  }
  return changed;
}
