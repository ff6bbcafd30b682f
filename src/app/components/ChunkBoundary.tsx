import { Component, type ReactNode } from 'react';

/**
 * Catches a lazily loaded part that failed to download (offline, a deploy replaced the chunk)
 * so the rest of the page stays: renders `fallback` (nothing by default) instead.
 */
export class ChunkBoundary extends Component<{ children: ReactNode; fallback?: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    console.error(error);
  }
  render() {
    return this.state.failed ? (this.props.fallback ?? null) : this.props.children;
  }
}
