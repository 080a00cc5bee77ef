import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

interface FormAlertProps {
  kind: 'success' | 'failure';
  /** The message of SPEC §4/§8, word for word. */
  title: ReactNode;
  /** More detail, such as the server's own message. */
  children?: ReactNode;
}

/**
 * The outcome of a form (DESIGN.md "States are always visible"): a green alert on success, a red
 * one on failure. A failure interrupts assistive technology (role alert); a success is polite.
 */
export function FormAlert({ kind, title, children }: FormAlertProps) {
  const success = kind === 'success';
  return (
    <Alert
      color={success ? 'green' : 'red'}
      variant="light"
      role={success ? 'status' : 'alert'}
      title={title}
    >
      {children}
    </Alert>
  );
}
