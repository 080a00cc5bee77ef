/**
 * What the production bundle gets for `import … from 'react'` (vite.config.ts): Preact's
 * React layer, plus the one React 19 component it lacks. See
 * docs/decisions/026-preact-in-the-bundle.md.
 */
export * from 'preact/compat';
export { default } from 'preact/compat';

/**
 * React 19.2's `<Activity>`, which Mantine uses only for content kept mounted while hidden
 * (`keepMounted` transitions and collapses, which Parla does not use): hidden content is left
 * out rather than kept hidden with its state.
 *
 * @param {{ mode?: 'visible' | 'hidden', children?: unknown }} props
 */
export function Activity({ mode = 'visible', children }) {
  return mode === 'hidden' ? null : children;
}
