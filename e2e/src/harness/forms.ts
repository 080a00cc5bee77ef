import type { Locator, Page } from 'playwright-core';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The control labelled exactly `label`. A required field's label ends with Mantine's asterisk
 * (hidden from assistive technology but part of the label's text), so it is allowed for.
 */
export function field(scope: Page | Locator, label: string): Locator {
  // A select's option list is labelled by the same label as its input: the input is meant.
  return scope
    .getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`))
    .and(scope.locator('input, textarea'));
}

/** The error text shown under a field: Mantine links it as the input's description. */
export async function fieldError(page: Page, label: string): Promise<string | null> {
  const describedBy = await field(page, label).getAttribute('aria-describedby');
  const errorId = describedBy?.split(' ').find((part) => part.endsWith('-error'));
  return errorId ? page.locator(`[id="${errorId}"]`).textContent() : null;
}
