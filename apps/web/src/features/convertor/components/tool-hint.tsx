import type { ReactNode } from 'react';
import classes from './editor.module.css';

/**
 * A toolbar tool with its hint, shown on hover and keyboard focus after a short delay
 * (editor.module.css, `.hinted`); the tool carries the same words as its aria-description.
 * `end`: the hint is aligned with the tool's end edge (tools at the toolbar's end).
 */
export function ToolHint({
  label,
  align = 'start',
  children,
}: {
  label: string;
  align?: 'start' | 'end';
  children: ReactNode;
}) {
  return (
    <span className={classes.hinted} data-hint={label} data-align={align}>
      {children}
    </span>
  );
}
