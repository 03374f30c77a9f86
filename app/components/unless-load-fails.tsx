import { Component, Suspense, type ReactNode } from "react";

/**
 * Shows a part loaded on first use (`React.lazy`) once its file has come, and nothing if the file cannot come (the
 * network gone before the service worker took the page, a chunk of an older deployment cleaned away): the page
 * around it stays, instead of the route's error boundary replacing it. `onFailed` lets the owner close what asked
 * for the part.
 */
export class UnlessLoadFails extends Component<{ children: ReactNode; onFailed?: () => void }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error("a part of the page could not be loaded", error);
    this.props.onFailed?.();
  }

  override render() {
    return this.state.failed ? null : <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}
