import { Alert, Box } from '@mantine/core';
import type { SpeechWarningAnswer } from '@parla/contract';
import { useTranslation } from 'react-i18next';

export interface ConvertWarningsProps {
  warnings: readonly SpeechWarningAnswer[];
}

/**
 * What of the converted text was not read as written (issue 27: a <phoneme> the voice cannot
 * say, another product's tag), with its line and column in the text.
 */
export default function ConvertWarnings({ warnings }: ConvertWarningsProps) {
  const { t } = useTranslation();
  return (
    <Alert
      color="yellow"
      variant="light"
      p="xs"
      title={t('convertor.warningsTitle')}
      data-testid="convert-warnings"
      // Mantine's yellow text is below WCAG AA on its light background.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Box component="ul" m={0} ps="md" fz="sm">
        {warnings.map((warning) => (
          <li key={`${warning.code}:${warning.line}:${warning.column}`}>
            {warning.line === null
              ? warning.message
              : t('convertor.warningAt', {
                  line: warning.line,
                  column: warning.column,
                  message: warning.message,
                })}
          </li>
        ))}
      </Box>
    </Alert>
  );
}
