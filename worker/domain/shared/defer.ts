/**
 * Work that may finish after the answer is sent (event delivery, object deletion): the Worker's `waitUntil`,
 * carried by the DomainContext (`ctx.defer`) so that domain commands stay free of the request's execution context.
 */
export type Defer = (work: Promise<unknown>) => void;
