// Import circles: the strongly connected parts of the file graph (Tarjan), and in each the shortest circle through
// every file, each circle reported once (rotated to start at its smallest path) as its chain of files.

/** The circles among the files matching `within`, each as `[a, b, …, a]`, sorted. */
export function findCycles(edges, within) {
  const next = new Map();
  for (const e of edges) {
    if (e.file === undefined || !within.test(e.from) || !within.test(e.file)) continue;
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from).add(e.file);
  }
  const chains = new Map();
  for (const part of stronglyConnected(next)) {
    for (const start of [...part].sort()) {
      const circle = shortestCircle(start, next, part);
      if (!circle) continue;
      const key = canonical(circle);
      if (!chains.has(key.join('\0'))) chains.set(key.join('\0'), key);
    }
  }
  return [...chains.values()].sort((a, b) => a.join().localeCompare(b.join()));
}

/** Tarjan's algorithm, iterative (a deep import chain must not overflow the stack); parts of one file only when it
 * imports itself. */
function stronglyConnected(next) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const parts = [];
  let counter = 0;
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work = [{ node: root, children: [...(next.get(root) ?? [])], i: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.i < frame.children.length) {
        const child = frame.children[frame.i++];
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, children: [...(next.get(child) ?? [])], i: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(child)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const part = new Set();
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          part.add(member);
        } while (member !== frame.node);
        if (part.size > 1 || next.get(frame.node)?.has(frame.node)) parts.push(part);
      }
    }
  }
  return parts;
}

/** Breadth-first from `start` back to itself, inside `part`: `[start, …, start]`. */
function shortestCircle(start, next, part) {
  const cameFrom = new Map();
  let frontier = [start];
  while (frontier.length > 0) {
    const following = [];
    for (const node of frontier) {
      for (const child of [...(next.get(node) ?? [])].sort()) {
        if (!part.has(child)) continue;
        if (child === start) {
          const chain = [start];
          for (let at = node; at !== start; at = cameFrom.get(at)) chain.unshift(at);
          chain.unshift(start);
          return chain;
        }
        if (cameFrom.has(child)) continue;
        cameFrom.set(child, node);
        following.push(child);
      }
    }
    frontier = following;
  }
  return undefined;
}

/** The same circle whichever file it is read from: rotated to start at its smallest path. */
function canonical(circle) {
  const ring = circle.slice(0, -1);
  let first = 0;
  for (let i = 1; i < ring.length; i++) if (ring[i] < ring[first]) first = i;
  const rotated = [...ring.slice(first), ...ring.slice(0, first)];
  return [...rotated, rotated[0]];
}
