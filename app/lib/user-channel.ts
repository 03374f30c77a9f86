/** Placeholder until the real-time branch lands. */
export function connectUserChannel(_onEvent: (event: { event: string }) => void): () => void {
  return () => {};
}
