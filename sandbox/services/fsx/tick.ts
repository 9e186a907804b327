import { keyed } from '../../core/keyed.js';
import type { TickContext } from '../../core/service.js';
import { deleteNetworkInterface } from '../ec2/public.js';
import { allFsxRegions } from './state.js';

/**
 * The FSx controller: CREATING file systems become AVAILABLE at `readyAt`; DELETING ones vanish at
 * `goneAt`, taking their network interfaces with them (only then do their subnets free up).
 */
export function fsxTick({ state, now }: TickContext): boolean {
  let changed = false;
  for (const [region, section] of allFsxRegions(state)) {
    for (const fs of keyed.values(section.fileSystems)) {
      if (fs.lifecycle === 'CREATING' && fs.readyAt !== undefined && now >= fs.readyAt) {
        fs.lifecycle = 'AVAILABLE';
        delete fs.readyAt;
        changed = true;
      } else if (fs.lifecycle === 'DELETING' && fs.goneAt !== undefined && now >= fs.goneAt) {
        for (const eni of fs.networkInterfaceIds) deleteNetworkInterface(state, region, eni);
        keyed.delete(section.fileSystems, fs.fileSystemId);
        changed = true;
      }
    }
  }
  return changed;
}
