import { Alert, Button } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Translation } from 'react-i18next';

interface WidgetBoundaryProps {
  /** What failed, for the message ('The player'), in the page's language. */
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
      <Translation>
        {(t) => (
          <Alert color="red" role="alert" title={t('widget.stopped', { name: this.props.name })}>
            {t('widget.textKept')}{' '}
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => this.setState({ failed: false })}
            >
              {t('widget.tryAgain')}
            </Button>
          </Alert>
        )}
      </Translation>
    );
  }
}
