/**
 * Sandbox inventory entries that carry InstantStart's tag for `cluster`, as `service/type` names.
 * Records AWS keeps for a while after deletion (a NAT gateway in state `deleted`) are not resources.
 */
export function tagged(inventory: Record<string, Record<string, unknown[]>>, cluster: string): string[] {
  const found: string[] = [];
  for (const [service, types] of Object.entries(inventory)) {
    for (const [type, items] of Object.entries(types)) {
      for (const item of items) {
        if ((item as { state?: string }).state === 'deleted') continue;
        const text = JSON.stringify(item);
        if (text.includes('instantstart.io/cluster') && text.includes(`"${cluster}"`)) found.push(`${service}/${type}`);
      }
    }
  }
  return found;
}

/** The sandbox inventory entries tagged with `cluster` (as `tagged`), each with its name or id, for a message that names them. */
export function taggedNames(inventory: Record<string, Record<string, unknown[]>>, cluster: string): string[] {
  const found: string[] = [];
  for (const [service, types] of Object.entries(inventory)) {
    for (const [type, items] of Object.entries(types)) {
      for (const item of items as Array<Record<string, unknown>>) {
        if (item.state === 'deleted') continue;
        const text = JSON.stringify(item);
        if (!text.includes('instantstart.io/cluster') || !text.includes(`"${cluster}"`)) continue;
        const id =
          item.name ??
          item.fileSystemId ??
          item.vpcId ??
          item.subnetId ??
          item.arn ??
          Object.values(item).find((v) => typeof v === 'string' && /^[a-z]+-[0-9a-f]+$/.test(v));
        found.push(`${service}/${type} ${String(id)}`);
      }
    }
  }
  return found;
}
