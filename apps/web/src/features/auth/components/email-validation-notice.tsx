import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';

/**
 * Replaces the login page when the address is not validated yet (SPEC §2): the server has just
 * mailed a new validation link, and the contact page helps when it does not arrive.
 */
export function EmailValidationNotice() {
  return (
    <Alert color="yellow" variant="light" role="status" title="Please validate your email address">
      <Stack gap="xs">
        <Text>
          We have sent a validation link to your email address. Open it to validate your address;
          you will then be signed in automatically.
        </Text>
        <Text>
          No mail after a few minutes? Check your spam folder, or{' '}
          <Anchor component={Link} to="/contact">
            contact us
          </Anchor>
          .
        </Text>
      </Stack>
    </Alert>
  );
}
