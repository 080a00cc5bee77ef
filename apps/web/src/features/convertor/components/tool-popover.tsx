import { Button, Popover } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './editor.module.css';
import { ToolHint } from './tool-hint';

interface ToolPopoverProps {
  /** The button's words (the tag's name). */
  label: string;
  /** What the button does, its accessible name and the popover's ("Insert pause"). */
  action: string;
  /** Shown on hover and focus, and the button's description (its cost, or why it is off). */
  hint: string;
  disabled?: boolean;
  opened: boolean;
  onOpenedChange: (opened: boolean) => void;
  /** The popover's content: the tag's value and its Insert button. */
  children: ReactNode;
}

/** A toolbar button that opens a named popover to insert a tag (the editor's tags, issue 32's). */
export function ToolPopover({
  label,
  action,
  hint,
  disabled = false,
  opened,
  onOpenedChange,
  children,
}: ToolPopoverProps) {
  return (
    <ToolHint label={hint}>
      <Popover
        opened={opened}
        onChange={onOpenedChange}
        trapFocus
        withArrow
        position="bottom-start"
        shadow="md"
      >
        <Popover.Target>
          <Button
            size="compact-sm"
            variant="default"
            className={classes.tool}
            disabled={disabled}
            aria-label={action}
            aria-description={hint}
            onClick={() => onOpenedChange(!opened)}
          >
            {label}
          </Button>
        </Popover.Target>
        <Popover.Dropdown aria-label={action}>{children}</Popover.Dropdown>
      </Popover>
    </ToolHint>
  );
}
