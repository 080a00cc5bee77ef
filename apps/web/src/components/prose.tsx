import { Typography } from '@mantine/core';
import classes from './prose.module.css';

/**
 * HTML of the content service (already sanitised on the server: no scripts, no event handlers,
 * no javascript: links), set in a readable measure of about 68 characters (DESIGN.md).
 */
export function Prose({ html }: { html: string }) {
  return (
    <Typography maw="68ch" className={classes.prose}>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server (features/content/markdown.ts) */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
