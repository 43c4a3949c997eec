/** One calculated datapoint and the datapoints (by index in its set) its expression reads. */
export interface CalcNode {
  readonly index: number;
  readonly inputs: readonly number[];
}

export type CalcOrder =
  | { readonly ok: true; readonly order: readonly number[] }
  | { readonly ok: false; readonly cycles: readonly (readonly number[])[] };

/**
 * Orders the calculated datapoints of a set so that each comes after every calculated datapoint
 * it reads (inputs that are not calculated need no order). Ties keep document order. Reports
 * each cycle once, as the indexes along it (`[a, b]` for a -> b -> a; `[a]` when a reads itself).
 */
export function orderCalculations(nodes: readonly CalcNode[]): CalcOrder {
  const byIndex = new Map(nodes.map((n) => [n.index, n]));
  const order: number[] = [];
  // 0 = not visited, 1 = on the current path, 2 = done.
  const state = new Map<number, 0 | 1 | 2>();
  const cycles: number[][] = [];
  const path: number[] = [];
  const visit = (node: CalcNode): void => {
    state.set(node.index, 1);
    path.push(node.index);
    for (const input of node.inputs) {
      const next = byIndex.get(input);
      if (next === undefined) continue;
      const seen = state.get(input) ?? 0;
      if (seen === 1) cycles.push(path.slice(path.indexOf(input)));
      else if (seen === 0) visit(next);
    }
    path.pop();
    state.set(node.index, 2);
    order.push(node.index);
  };
  for (const node of nodes) if ((state.get(node.index) ?? 0) === 0) visit(node);
  return cycles.length > 0 ? { ok: false, cycles } : { ok: true, order };
}

/**
 * For each datapoint index, the calculated datapoints that depend on it directly or through
 * other calculations, in calculation order. Datapoints nothing depends on get an empty list.
 */
export function dependentsOf(
  nodes: readonly CalcNode[],
  order: readonly number[],
  datapointCount: number,
): (readonly number[])[] {
  const readers = new Map<number, number[]>();
  for (const node of nodes) {
    for (const input of node.inputs) {
      const list = readers.get(input) ?? [];
      if (!list.includes(node.index)) list.push(node.index);
      readers.set(input, list);
    }
  }
  const position = new Map(order.map((index, i) => [index, i]));
  const result: (readonly number[])[] = [];
  for (let index = 0; index < datapointCount; index++) {
    const reached = new Set<number>();
    const queue = [...(readers.get(index) ?? [])];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (reached.has(next)) continue;
      reached.add(next);
      queue.push(...(readers.get(next) ?? []));
    }
    // Every reached datapoint is calculated, so `order` holds it.
    result.push([...reached].sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0)));
  }
  return result;
}
