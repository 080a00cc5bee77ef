import { Button, Group, Text } from '@mantine/core';
import type { ArticleTranslation } from '@parla/contract';
import { Link } from 'react-router';
import { Flag } from '../../../components/flags';
import { describeLanguage } from '../../../lib/languages';

/**
 * SPEC §2 "Blog": the article's translations plus its own language; the current one is marked
 * as switched (filled, aria-current) and is not a link.
 */
export function TranslationSwitcher({
  translations,
  label,
}: {
  translations: ArticleTranslation[];
  label: string;
}) {
  if (translations.length < 2) return null;
  return (
    <Group component="nav" aria-label={label} gap="xs" wrap="wrap">
      <Text fz="sm" c="dimmed" component="span">
        {label}
      </Text>
      {translations.map((translation) => {
        const language = describeLanguage(translation.code);
        const common = {
          size: 'xs' as const,
          radius: 'xl' as const,
          mih: 36,
          leftSection: <Flag code={translation.code} size={16} />,
          lang: language.locale,
        };
        return translation.switched ? (
          <Button
            key={translation.code}
            {...common}
            variant="filled"
            aria-current="true"
            component="span"
          >
            {language.nativeName}
          </Button>
        ) : (
          <Button
            key={translation.code}
            {...common}
            variant="default"
            component={Link}
            to={translation.link}
            hrefLang={language.locale}
          >
            {language.nativeName}
          </Button>
        );
      })}
    </Group>
  );
}
