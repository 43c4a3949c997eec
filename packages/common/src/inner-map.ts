/**
 * The map `outer` holds at `key`, created (empty) and stored there when it holds none: the step
 * of a nested map lookup that builds as it goes (`innerMap(byDevice, id).set(point, value)`), so
 * no joined key string is made per entry.
 */
export function innerMap<K, IK, V>(outer: Map<K, Map<IK, V>>, key: K): Map<IK, V> {
  let inner = outer.get(key);
  if (inner === undefined) {
    inner = new Map<IK, V>();
    outer.set(key, inner);
  }
  return inner;
}
