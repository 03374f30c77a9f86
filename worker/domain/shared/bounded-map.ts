/**
 * Sets `key` in one of an isolate's keep-what-was-seen maps, letting the oldest entry go first once it holds
 * `capacity` (a Map keeps insertion order): what comes from clients (tokens, usernames, paths) cannot grow it forever.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  if (map.size >= capacity) map.delete(map.keys().next().value!);
  map.set(key, value);
}
