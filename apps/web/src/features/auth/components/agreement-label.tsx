import { Anchor, VisuallyHidden } from '@mantine/core';

function NewTabLink({ to, children }: { to: string; children: string }) {
  return (
    // SPEC §2: the terms and privacy pages open in a new tab from the auth forms.
    <Anchor href={to} target="_blank" rel="noopener noreferrer">
      {children}
      <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
    </Anchor>
  );
}

/** The label of the terms and privacy agreement checkbox of the login and register forms. */
export function AgreementLabel() {
  return (
    <>
      I agree to the <NewTabLink to="/terms-of-services">Terms of Services</NewTabLink> and the{' '}
      <NewTabLink to="/privacy-policy">Privacy Policy</NewTabLink>
    </>
  );
}
