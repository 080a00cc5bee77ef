import { Alert, Button } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface WidgetBoundaryProps {
  /** What failed, for the message ('The player'). */
  name: string;
  children: ReactNode;
}

/**
 * A local error boundary (CONVENTIONS §11): if the editor or the player breaks, the rest of the
 * page (and the document, which lives above the boundary) stays usable.
 */
export class WidgetBoundary extends Component<WidgetBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    // Kept in the console for whoever debugs it; the visitor sees the alert.
    console.warn(`${this.props.name} failed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert color="red" role="alert" title={`${this.props.name} stopped working`}>
        Your text is kept.{' '}
        <Button size="compact-sm" variant="light" onClick={() => this.setState({ failed: false })}>
          Try again
        </Button>
      </Alert>
    );
  }
}
