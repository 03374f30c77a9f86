/**
 * Work that may finish after the answer is sent (fan-out, object deletion): the Worker's `waitUntil`, passed in
 * by the route so that domain commands stay free of the request's execution context.
 */
export type Defer = (work: Promise<unknown>) => void;
